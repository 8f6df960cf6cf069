// RUN: rm -rf %t && mkdir -p %t/scratch
// RUN: ssd-run %s --scratch-dir %t/scratch --target epyc9654-990pro --compute=model --steps 2 | FileCheck %s
// RUN: ssd-run --calibrate --calibrate-bytes=64MiB --scratch-dir %t/scratch --device-rates %S/Inputs/device-rates.json -o %t/target.json
// RUN: FileCheck %s --check-prefix=TARGET < %t/target.json
// RUN: ssd-opt %s -ssd-verify-plan --split-input-file | ssd-run /dev/stdin --scratch-dir %t/scratch --target %t/target.json --steps 1 | FileCheck %s
// RUN: not ssd-run %s --scratch-dir %t/missing 2>&1 | FileCheck %s --check-prefix=NODIR
// RUN: not ssd-run %s --scratch-dir %t/scratch --target %S/Inputs/zero-rate-target.json 2>&1 | FileCheck %s --check-prefix=BADTARGET
// RUN: not ssd-run %S/Inputs/unverified-plan.mlir --scratch-dir %t/scratch 2>&1 | FileCheck %s --check-prefix=UNVERIFIED
// RUN: not ssd-run %s --scratch-dir %t/scratch --compute=guess 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: ssd-run %s --scratch-dir %t/scratch --target epyc9654-990pro --compute=model --steps 1 --min-seconds 0.05 \
// RUN:   | FileCheck %s --check-prefix=MIN
// RUN: not ssd-run %s --scratch-dir %t/scratch --min-seconds -1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: ssd-run %s --scratch-dir %t/scratch --target %t/target.json --steps 2 --probe-latency | FileCheck %s --check-prefix=PROBE
// RUN: ssd-run %s --scratch-dir %t/scratch --target %S/Inputs/idle-target.json --compute=model --steps 1 | FileCheck %s --check-prefix=IDLE
// RUN: not ssd-run %S/Inputs/larger-than-any-disk.mlir --scratch-dir %t/scratch --target epyc9654-990pro 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: not ssd-run --calibrate --calibrate-bytes 1000TiB --scratch-dir %t/scratch -o %t/none.json 2>&1 | FileCheck %s --check-prefix=FULLCAL
// RUN: not ls %t/none.json
// RUN: not ssd-run --calibrate --scratch-dir %t/missing 2>&1 | FileCheck %s --check-prefix=NODIR
// RUN: not ssd-run --calibrate --calibrate-seconds -1 --scratch-dir %t/scratch 2>&1 | FileCheck %s --check-prefix=CALSECONDS
// RUN: not ssd-run --calibrate --scratch-dir %t/scratch --device-rates %S/Inputs/bad-device-rates.json -o %t/bad.json 2>&1 | FileCheck %s --check-prefix=BADRATES
// RUN: not ls %t/bad.json
// RUN: not ssd-run %s --scratch-dir %t/scratch --device-rates %S/Inputs/device-rates.json 2>&1 | FileCheck %s --check-prefix=RATESALONE

// Tests that the plan's bytes really move: 8 KiB written and read back per
// step, through the runtime, and that the output names every measure.
// CHECK: "achieved_compute_seconds":
// CHECK: "achieved_step_seconds":
// CHECK: "bytes_read": 8192
// CHECK: "bytes_written": 8192
// CHECK: "issue_seconds":
// CHECK: "median_step_seconds":
// CHECK: "p90_step_seconds":
// CHECK: "predicted_idle_latency_seconds":
// CHECK: "predicted_read_stall_seconds":
// CHECK: "predicted_stall_seconds":
// CHECK: "predicted_step_seconds":
// CHECK: "predicted_write_stall_seconds":
// CHECK: "read_gbps":
// CHECK: "read_stall_seconds":
// CHECK: "stall_seconds":
// CHECK: "write_gbps":
// CHECK: "write_stall_seconds":

// Tests that the prediction charges the target's idle latency: flat 1 ms
// after any quiet spell, paid by the write (after the previous step's
// read and two kernels) and by the read (after the release and a kernel).
// IDLE: "predicted_idle_latency_seconds": 0.002,
// IDLE: "target": "wakes-slowly"

// Tests that --min-seconds runs more steps than --steps asks for.
// MIN: "steps": {{[2-9]|[1-9][0-9]+}},

// Tests that the device's rates (--device-rates, as `python -m ssdopt
// calibrate` writes them) replace the host probe's, and the description
// says so and quotes the file's.
// TARGET: "compute_flops": 65000000000,
// Tests that the latency is fitted over several transfer sizes, each shown.
// TARGET: "description": "measured by ssd-run --calibrate on {{.*}}; latency fitted as time - bytes / bandwidth over {{[0-9]+}} rounds of each size: durable write {{.*}} s, read {{.*}} s; starting a transfer {{.*}} s; 4096 B: write mean {{.*}} s (median {{.*}} s), read mean {{.*}} s (median {{.*}} s); 10240 B: {{.*}}; 65536 B: {{.*}}; 262144 B: {{.*}}; extra latency after idling (mean of write and read): {{.*}} s after 2.500e-04 s, {{.*}} s after 2.000e-02 s; the device's rates from {{.*}}device-rates.json replace the host's (written by hand for this test)"
// TARGET: "device_memory_bandwidth": 9000000000,
// TARGET: "io_latency_seconds":
// TARGET: "name": "calibrated"
// TARGET: "op_overhead_seconds": 3.9999999999999998e-06,
// Tests that the calibration measures the cost of idling, 0.25 to 20 ms.
// TARGET: "ssd_idle_latency": [
// TARGET: "idle_seconds": 0.00025
// TARGET: "idle_seconds": 0.0005
// TARGET: "idle_seconds": 0.001
// TARGET: "idle_seconds": 0.002
// TARGET: "idle_seconds": 0.005
// TARGET: "idle_seconds": 0.02
// TARGET: "ssd_read_bandwidth":
// TARGET: "ssd_read_latency_seconds":
// Tests that queued transfers get latencies of their own.
// TARGET: "ssd_read_queued_latency_seconds":
// Tests that the target knows the runtime moves two transfers at once.
// TARGET: "ssd_transfer_workers": 2,
// TARGET: "ssd_write_bandwidth":
// TARGET: "ssd_write_latency_seconds":
// TARGET: "ssd_write_queued_latency_seconds":
// TARGET: "transfer_issue_seconds":

// Tests that --probe-latency predicts the plan again with the latencies
// measured between the steps (16 rounds at least, more as steps are long).
// PROBE: "achieved_over_matched":
// PROBE: "matched_predicted_step_seconds":
// PROBE: "probe_issue_seconds":
// PROBE: "probe_read_latency_seconds":
// PROBE: "probe_read_queued_latency_seconds":
// PROBE: "probe_rounds": {{1[6-9]|[2-9][0-9]|[1-9][0-9][0-9]+}},
// PROBE: "probe_write_latency_seconds":
// PROBE: "probe_write_queued_latency_seconds":

// NODIR: ssd-run: scratch directory '{{.*}}missing' does not exist

// Tests that a scratch directory without room for the replay's (1 PiB) or
// the calibration's data is an error before any work starts: no buffer is
// allocated, nothing is written, no target file is left.
// FULL: ssd-run: scratch directory '{{.*}}scratch' has {{[0-9]+}} bytes available; the replay needs 1125899906842624
// FULLCAL: ssd-run: scratch directory '{{.*}}scratch' has {{[0-9]+}} bytes available; the calibration needs 1099511628152832
// BADTARGET: ssd-run: target 'zero': compute, device memory and SSD rates must be positive
// UNVERIFIED: uses a tensor after its release
// UNVERIFIED: ssd-run: the plan does not verify; nothing ran
// MODE: ssd-run: --compute must be spin or model, got 'guess'
// NEGATIVE: ssd-run: --min-seconds must not be negative
// CALSECONDS: ssd-run: --calibrate-seconds must not be negative
// Tests that a --device-rates file is checked by the target parser before
// the disk is measured (no target is written), and needs --calibrate.
// BADRATES: ssd-run: --device-rates file '{{.*}}bad-device-rates.json': target file: unknown field 'op_overhead'
// RATESALONE: ssd-run: --device-rates goes with --calibrate

func.func @step(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e9 : f64} : (tensor<1024xf32>) -> tensor<2048xf32>
  %h, %t = ssd.offload %a : tensor<2048xf32>
  ssd.release %a after %t : tensor<2048xf32>
  %b = ssd.kernel "g"(%x) {flops = 1.0e9 : f64} : (tensor<1024xf32>) -> tensor<2048xf32>
  %r = ssd.prefetch %h : !ssd.handle<tensor<2048xf32>>
  %c = ssd.kernel "g2"(%b) {flops = 1.0e9 : f64} : (tensor<2048xf32>) -> tensor<16xf32>
  %a2 = ssd.wait %r, %h : !ssd.handle<tensor<2048xf32>>
  %d = ssd.kernel "h"(%a2, %c) {flops = 1.0e9 : f64} : (tensor<2048xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %d : tensor<16xf32>
}
