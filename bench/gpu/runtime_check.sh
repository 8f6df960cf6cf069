#!/usr/bin/env bash
#===- bench/gpu/runtime_check.sh - ssdrt device round trips on a GPU ------===#
#
# For the machine with a GPU: builds the runtime and ssdrt-gpucheck, which
# offloads device tensors through the full pipeline (device -> pinned staging
# -> disk and back), checks every byte (odd sizes; wait, wait_event and
# wait_stream), and prints the pipeline's bandwidth next to a plain pinned
# cuMemcpy as the last line (JSON). Builds with CMake when it can, else with
# the C++ compiler directly (that machine may lack GTest or liburing-dev;
# without liburing the thread-pool engine runs).
#
#   bench/gpu/runtime_check.sh [BYTES]      (default 1 GiB)
#
# Exit status: 0 ok, 1 mismatch or error, 77 no GPU (skipped).
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${SSDRT_GPU_BUILD_DIR:-$root/build-gpu}
bytes=${1:-1073741824}
exe=$build/bench/io/ssdrt-gpucheck
cuda_inc=${CUDA_INCLUDE_DIR:-/usr/local/cuda/include}
mkdir -p "$build"
if ! { cmake -S "$root" -B "$build" -G Ninja -DSSD_BUILD_COMPILER=OFF \
         -DCMAKE_BUILD_TYPE=Release >"$build/configure.log" 2>&1 &&
       ninja -C "$build" ssdrt-gpucheck >"$build/build.log" 2>&1; }; then
  echo "# cmake build failed (see $build/*.log); compiling directly"
  mkdir -p "$build/bench/io"
  flags=(-std=c++20 -O2 -I"$root/include" -I"$cuda_inc" -DSSD_HAVE_CUDA)
  libs=(-ldl -lpthread)
  if echo '#include <liburing.h>' | ${CXX:-c++} -x c++ -fsyntax-only - 2>/dev/null; then
    libs+=(-luring)
  else
    echo "# no liburing headers: io_uring left out, thread-pool engine only"
    flags+=(-DSSD_WITHOUT_URING)
  fi
  ${CXX:-c++} "${flags[@]}" "$root"/lib/Runtime/*.cpp \
    "$root/bench/io/gpucheck.cpp" -o "$exe" "${libs[@]}"
fi
work=$(mktemp -d "$build/gpucheck.XXXXXX")
trap 'rm -rf "$work"' EXIT
nvidia-smi --query-gpu=name,pcie.link.gen.current,pcie.link.width.current \
  --format=csv,noheader 2>/dev/null | sed 's/^/# gpu: /' || true
echo "# data dir: $work ($(stat -f -c %T "$work"))"
"$exe" "$work" "$bytes"
