#!/usr/bin/env bash
#===- bench/gpu/runtime_check.sh - ssdrt device round trips on a GPU ------===#
#
# For the machine with a GPU: builds the runtime alone and runs
# ssdrt-gpucheck, which offloads device tensors through the full pipeline
# (device -> pinned staging -> disk and back), checks every byte, and prints
# the pipeline's bandwidth next to a plain pinned cuMemcpy (last line, JSON).
#
#   bench/gpu/runtime_check.sh [BYTES]      (default 1 GiB)
#
# Exit status: 0 ok, 1 mismatch or error, 77 no GPU (skipped).
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${SSDRT_GPU_BUILD_DIR:-$root/build-gpu}
bytes=${1:-1073741824}
if [ ! -x "$build/bench/io/ssdrt-gpucheck" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DSSD_BUILD_COMPILER=OFF \
    -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$build" ssdrt-gpucheck >/dev/null
fi
work=$(mktemp -d "$build/gpucheck.XXXXXX")
trap 'rm -rf "$work"' EXIT
nvidia-smi --query-gpu=name,pcie.link.gen.current,pcie.link.width.current \
  --format=csv,noheader 2>/dev/null | sed 's/^/# gpu: /' || true
echo "# data dir: $work ($(stat -f -c %T "$work"))"
"$build/bench/io/ssdrt-gpucheck" "$work" "$bytes"
