#!/usr/bin/env bash
# Runs on a lent NVIDIA machine (no network, no Vulkan loader installed), from the repository
# root, with .gl (the Debian libvulkan1 .deb) and .carry (binaries built on the dev machine by
# scripts/device_pack.sh) carried along.  Results go to $OUT.
#   scripts/device_run.sh info|tests|bench-fp32|bench-fp16|levels|all
set -uo pipefail
what=${1:-all}
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
ls /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json >/dev/null 2>&1 ||
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
C=$PWD/.carry
export LD_LIBRARY_PATH=$C/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export VK_LAYER_PATH=$C/layer
# Debian 12's loader (the one that loads this container's NVIDIA ICD) asks vkGetDeviceProcAddr
# for vkGetPhysicalDeviceVideoEncodeQualityLevelPropertiesKHR while building its own dispatch
# table; the 1.4 layer warns about that.  It is the loader's call, not vkconv's: filtered by ID.
export VK_LAYER_MESSAGE_ID_FILTER=WARNING-vkGetDeviceProcAddr-device
export VKCONV_CACHE_DIR=/tmp/vkconv-cache VKCONV_SUITES_DIR=$PWD/bench/suites
export PYTHONUNBUFFERED=1
B="$C/bin/vkconv-bench --suites-dir bench/suites"
B32="--suite resnet50 --suite vgg16 --suite mobilenet_v2 --suite retinanet_head"
say() { echo "== $* ($(date +%T))"; }

if [[ $what == info || $what == all ]]; then
  say vkconv-info
  $C/bin/vkconv-info --validation | tee "$OUT/info.txt"
  $C/bin/vkconv-info --json > "$OUT/info.json"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee -a "$OUT/info.txt"
fi
if [[ $what == tests || $what == all ]]; then
  say "vkconv_tests (validation layer on)"
  VKCONV_VALIDATION=1 VKCONV_REQUIRE_VALIDATION=1 $C/bin/vkconv_tests --gtest_brief=1 > "$OUT/tests.log" 2>&1
  echo "vkconv_tests exit $?"; grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/tests.log" | sort | uniq -c | sort -rn | head -20
  grep -E "^\[  FAILED" "$OUT/tests.log" | head
fi
if [[ $what == bench-fp32 || $what == all ]]; then
  say "peak probe"; $B --peak | tee "$OUT/peak.txt"
  say "vkconv fp32 nchw, batch 1 and 32"
  # Batch 32 for the suites the anchors time at 32 (SD-VAE and the RDNA1 matrix: batch 1 only).
  $B --dtype fp32 --layout nchw --batch 1 --check --json "$OUT/vkconv_fp32_b1.json" > "$OUT/vkconv_fp32.txt" 2> "$OUT/vkconv_fp32.err"
  $B --dtype fp32 --layout nchw --batch 32 $B32 --check --json "$OUT/vkconv_fp32_b32.json" >> "$OUT/vkconv_fp32.txt" 2>> "$OUT/vkconv_fp32.err"
  echo "exit $?"; tail -12 "$OUT/vkconv_fp32.txt"
  say "cuDNN fp32 nchw"
  python3 bench/torch_baseline.py --config fp32_nchw --batch 1 --batch 32 --json "$OUT/cudnn_fp32.json" > /dev/null 2> "$OUT/cudnn_fp32.err"
  echo "exit $?"
fi
if [[ $what == bench-fp16 || $what == all ]]; then
  say "vkconv fp16 nhwc, batch 1 and 32"
  $B --dtype fp16 --layout nhwc --batch 1 --check --json "$OUT/vkconv_fp16_b1.json" > "$OUT/vkconv_fp16.txt" 2> "$OUT/vkconv_fp16.err"
  $B --dtype fp16 --layout nhwc --batch 32 $B32 --check --json "$OUT/vkconv_fp16_b32.json" >> "$OUT/vkconv_fp16.txt" 2>> "$OUT/vkconv_fp16.err"
  echo "exit $?"; tail -12 "$OUT/vkconv_fp16.txt"
  say "cuDNN fp16 nhwc"
  python3 bench/torch_baseline.py --config fp16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn_fp16.json" > /dev/null 2> "$OUT/cudnn_fp16.err"
  echo "exit $?"
  say "vkconv bf16 nhwc, batch 32"
  $B --dtype bf16 --layout nhwc --batch 32 $B32 --check --json "$OUT/vkconv_bf16_b32.json" > "$OUT/vkconv_bf16.txt" 2> "$OUT/vkconv_bf16.err"
  echo "exit $?"; tail -8 "$OUT/vkconv_bf16.txt"
  say "cuDNN bf16 nhwc"
  python3 bench/torch_baseline.py --config bf16_nhwc --batch 32 --json "$OUT/cudnn_bf16.json" > /dev/null 2> "$OUT/cudnn_bf16.err"
  echo "exit $?"
fi
if [[ $what == tiles ]]; then
  # implicit_gemm tile configurations forced one by one on the big-GEMM suite (tuning data).
  for t in 128x128x8/8x8 128x64x8/8x4 128x64x16/8x4 64x64x8/4x4; do
    say "tile $t"
    $B --suite vgg16 --batch 32 --dtype fp32 --layout nchw --layout nhwc --algo implicit_gemm --tile "$t" --json "$OUT/tile_${t//\//_}.json" 2>/dev/null | grep -E "^vgg16 +32"
  done
  for t in 128x128x32 128x64x32 64x64x32; do
    say "coopmat tile $t"
    $B --suite vgg16 --suite retinanet_head --batch 32 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile "$t" --json "$OUT/cmtile_$t.json" 2>/dev/null | grep -E "^(vgg16|retinanet_head) +32 fp16"
  done
fi
if [[ $what == levels || $what == all ]]; then
  # Every algorithm on each layer: the optimization-level table (ResNet-50 b32 fp32, NCHW and
  # NHWC) and the padding table (implicit_gemm masks vs implicit_gemm_analytic).
  say "levels: resnet50 b32 fp32 --algo all"
  $B --suite resnet50 --batch 32 --dtype fp32 --layout nchw --layout nhwc --algo all --check --json "$OUT/levels_resnet50_b32.json" > "$OUT/levels.txt" 2>&1
  echo "exit $?"
  say "padding: rdna1_matrix + resnet50 b1 fp32 --algo all"
  $B --suite rdna1_matrix --suite resnet50 --batch 1 --dtype fp32 --layout nchw --layout nhwc --algo all --check --json "$OUT/levels_b1.json" >> "$OUT/levels.txt" 2>&1
  echo "exit $?"; grep -E "passed|failed" "$OUT/levels.txt" | tail -2
fi
say done
# The device tool returns at most 8 files: pack everything into one archive.
# One archive per mode, so several modes in one call keep all their files.
(cd "$OUT" && files=$(ls | grep -v -e '\.tgz$' -e '\.log$') && [ -n "$files" ] && tar czf "results-$what.tgz" $files && rm -f $files) || true
