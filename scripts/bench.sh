#!/usr/bin/env bash
# Sets up, builds and benchmarks the default device (VKCONV_DEVICE picks another).  On a real GPU
# it runs every suite at batch 1 and 32; on a CPU device (lavapipe) a small suite.  Arguments
# are passed to vkconv-bench (e.g. --dtype fp16 --layout nhwc --json out.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DVKCONV_BUILD_TESTS=OFF >/dev/null
ninja -C build vkconv-bench vkconv-info >/dev/null
./build/tools/vkconv-info
if ./build/tools/vkconv-info --json | grep -q '"type":"cpu"'; then
  echo "[bench] CPU Vulkan device: running the small rdna1_matrix suite at batch 1" >&2
  exec ./build/bench/vkconv-bench --suite rdna1_matrix --batch 1 --max-gflop 1 --calls 3 --repeats 3 --check "$@"
fi
exec ./build/bench/vkconv-bench --peak --batch 1 --batch 32 --check "$@"
