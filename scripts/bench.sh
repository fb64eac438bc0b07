#!/usr/bin/env bash
# Sets up, builds and benchmarks the default device (VKCONV_DEVICE picks another).  On a real GPU
# it runs the suites at batch 1 and 32 (fp32 NCHW; pass e.g. `--dtype fp16 --layout nhwc --suite
# vgg16 --batch 32 --json out.json` for anything else); on a CPU device (lavapipe) a small suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DVKCONV_BUILD_TESTS=OFF >/dev/null
cmake --build build -j "$(nproc)" --target vkconv-bench vkconv-info >/dev/null
./build/tools/vkconv-info
if ./build/tools/vkconv-info --json | grep -q '"type":"cpu"'; then
  echo "[bench] CPU Vulkan device: running the small rdna1_matrix suite at batch 1" >&2
  exec ./build/bench/vkconv-bench --suite rdna1_matrix --batch 1 --max-gflop 1 --calls 3 --repeats 3 --check "$@"
fi
# With arguments: exactly what they say.  Without: the anchors' set — every suite at batch 1,
# the four classification/detection suites at batch 32 (SD-VAE and the RDNA1 matrix at batch 32
# would be multi-GB tensors) — writing vkconv-b1.json and vkconv-b32.json for bench/report.py.
[ $# -gt 0 ] && exec ./build/bench/vkconv-bench "$@"
./build/bench/vkconv-bench --peak
./build/bench/vkconv-bench --batch 1 --check --json vkconv-b1.json
exec ./build/bench/vkconv-bench --batch 32 --suite resnet50 --suite vgg16 --suite mobilenet_v2 --suite retinanet_head \
  --check --json vkconv-b32.json
