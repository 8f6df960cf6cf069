#!/usr/bin/env bash
#===- bench/gpu/backend_check.sh - the "ssd" backend on a GPU --------------===#
#
# For the machine with a GPU: sets up what is missing (scripts/setup, the
# build of ssd-opt), then trains a GPT-2-shaped model on CUDA with and
# without the backend (bench/gpu/backend_check.py) and prints peak device
# memory and the step-time ratio as one JSON line. Arguments go to the script.
#
#   bench/gpu/backend_check.sh [--layers N] [--batch B] [--seq S] [--fraction F]
#
# Exit status: 0 ok, 1 mismatch or error, 77 no GPU (skipped).
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
if ! nvidia-smi >/dev/null 2>&1; then
  echo "# no GPU: skipped"
  exit 77
fi
scripts/setup >/tmp/backend_check.setup.log 2>&1 || {
  tail -20 /tmp/backend_check.setup.log
  exit 1
}
make build JOBS="$(nproc)" >/tmp/backend_check.build.log 2>&1 || {
  tail -20 /tmp/backend_check.build.log
  exit 1
}
exec .venv/bin/python bench/gpu/backend_check.py "$@"
