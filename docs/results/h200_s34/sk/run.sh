# Session 34, call 2: slicedk_coopmat (the reduction split over a workgroup's subgroups) on the
# deep 1x1 layers (layers.csv: ResNet-50's and MobileNetV2's 1x1 stride-1 layers of 256+ channels),
# and depthwise_tiled at b1 in fp32 / bf16:
#  1. slicedk_coopmat's and depthwise_tiled's tests (validation layer on);
#  2. layers.csv fp16 NHWC b1: the router, slicedk_coopmat's heuristic, eight forced tiles; bf16
#     router / heuristic; b32: the router, the heuristic, two tiles; every row checked;
#  3. MobileNetV2's depthwise layers b1 fp32 / bf16 NHWC: register kernel, then depthwise_tiled.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
L=docs/results/h200_s34/sk/layers.csv
D=docs/results/h200_s34/dw/layers.csv
tests_validated tests_sk.log 120 '*SlicedK*:*DepthwiseTiled*'
run() { RUN_TIMEOUT=40 bench_checked new "$@"; }
run b1_auto --shapes $L --batch 1 --dtype fp16 --layout nhwc
run b1_sk --shapes $L --batch 1 --dtype fp16 --layout nhwc --algo slicedk_coopmat
for t in 32x2/8 32x1/16 16x2/8 16x1/16 32x2/4 64x1/8 64x2/4 32x4/4; do
  run b1_sk_${t//\//_} --shapes $L --batch 1 --dtype fp16 --layout nhwc --algo slicedk_coopmat --tile $t
done
run b1_auto2 --shapes $L --batch 1 --dtype fp16 --layout nhwc
run b1_bf16_auto --shapes $L --batch 1 --dtype bf16 --layout nhwc
run b1_bf16_sk --shapes $L --batch 1 --dtype bf16 --layout nhwc --algo slicedk_coopmat
run b32_auto --shapes $L --batch 32 --dtype fp16 --layout nhwc
run b32_sk --shapes $L --batch 32 --dtype fp16 --layout nhwc --algo slicedk_coopmat
for t in 64x1/8 32x2/4; do
  run b32_sk_${t//\//_} --shapes $L --batch 32 --dtype fp16 --layout nhwc --algo slicedk_coopmat --tile $t
done
for dt in fp32 bf16; do
  VKCONV_DEPTHWISE_TILED=0 RUN_TIMEOUT=40 bench_checked new dw_b1_${dt}_old --shapes $D --batch 1 --dtype $dt --layout nhwc
  run dw_b1_${dt}_new --shapes $D --batch 1 --dtype $dt --layout nhwc
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la)
