# Session 34, call 1: depthwise_tiled (a shared-memory halo per workgroup) against the register
# kernel ("depthwise", VKCONV_DEPTHWISE_TILED=0):
#  1. the depthwise tests and the edge tests (validation layer on);
#  2. MobileNetV2's 10 depthwise layers (layers.csv), fp16 NHWC b32: old, new (router), old, and
#     forced tiles (24 KiB halos; then 48 KiB for the big ones), every row checked;
#  3. the same layers fp32 / bf16 NHWC b32 old and new; fp16 b1 old, new and a few tiles;
#  4. MobileNetV2 fp16 NHWC b32 and b1 old and new, cuDNN beside.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
L=docs/results/h200_s34/dw/layers.csv
tests_validated tests_dw.log 90 '*Depthwise*:*EdgeTest*:*BufferViewOffsets*'
old() { VKCONV_DEPTHWISE_TILED=0 RUN_TIMEOUT=40 bench_checked new "$@"; }
new() { RUN_TIMEOUT=40 bench_checked new "$@"; }
old b32_old --shapes $L --batch 32 --dtype fp16 --layout nhwc
new b32_new --shapes $L --batch 32 --dtype fp16 --layout nhwc
old b32_old2 --shapes $L --batch 32 --dtype fp16 --layout nhwc
for t in 8x16x16/2x4 16x16x8/2x4 16x8x16/2x4 32x8x16/2x4 16x8x8/1x4 16x4x8/1x2 32x4x8/1x2 32x8x8/1x2 16x8x16/1x2 8x8x32/1x4 32x4x16/1x4 16x16x4/1x4; do
  new b32_t${t//\//_} --shapes $L --batch 32 --dtype fp16 --layout nhwc --algo depthwise_tiled --tile $t
done
for t in 32x8x16/2x4 32x4x16/1x4 16x8x16/2x4; do
  VKCONV_DEPTHWISE_HALO_BYTES=49152 new b32_h48_t${t//\//_} --shapes $L --batch 32 --dtype fp16 --layout nhwc --algo depthwise_tiled --tile $t
done
for dt in fp32 bf16; do
  old b32_${dt}_old --shapes $L --batch 32 --dtype $dt --layout nhwc
  new b32_${dt}_new --shapes $L --batch 32 --dtype $dt --layout nhwc
done
old b1_old --shapes $L --batch 1 --dtype fp16 --layout nhwc
new b1_new --shapes $L --batch 1 --dtype fp16 --layout nhwc
for t in 16x8x4/1x2 16x4x4/1x1 8x8x4/1x1 32x4x8/1x2 16x8x8/1x4; do
  new b1_t${t//\//_} --shapes $L --batch 1 --dtype fp16 --layout nhwc --algo depthwise_tiled --tile $t
done
for b in 32 1; do
  VKCONV_DEPTHWISE_TILED=0 RUN_TIMEOUT=60 bench_checked new mnv2_b${b}_old --suite mobilenet_v2 --batch $b --dtype fp16 --layout nhwc
  RUN_TIMEOUT=60 bench_checked new mnv2_b${b}_new --suite mobilenet_v2 --batch $b --dtype fp16 --layout nhwc
done
say cudnn
timeout 100 python3 bench/torch_baseline.py --suite mobilenet_v2 --config fp16_nhwc --config fp32_nhwc --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la)
