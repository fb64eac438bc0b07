# Session 34, call 3: slicedk_coopmat through the filter taps (IM2COL) and two stages ahead:
#  1. slicedk_coopmat's tests (validation layer on);
#  2. layers.csv (every groups-1 layer of the suites with at most 1024 output pixels at b1 and a
#     reduction of 320+ values that is not 1x1 stride 1: 3x3 and strided layers), fp16 NHWC b1:
#     the router, slicedk_coopmat's heuristic, eight forced tiles, the router again;
#  3. the 1x1 layers of call 2 (../sk/layers.csv) b1 with two stages ahead, three tiles.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
L=docs/results/h200_s34/sk2/layers.csv
L1=docs/results/h200_s34/sk/layers.csv
tests_validated tests_sk.log 120 '*SlicedK*'
run() { RUN_TIMEOUT=40 bench_checked new "$@"; }
run b1_auto --shapes $L --batch 1 --dtype fp16 --layout nhwc
run b1_sk --shapes $L --batch 1 --dtype fp16 --layout nhwc --algo slicedk_coopmat
for t in 16x2/8a2 32x2/4a2 64x2/4a2 16x2/8 32x2/4 64x2/4 16x1/16a2 32x2/8a2; do
  run b1_sk_${t//\//_} --shapes $L --batch 1 --dtype fp16 --layout nhwc --algo slicedk_coopmat --tile $t
done
run b1_auto2 --shapes $L --batch 1 --dtype fp16 --layout nhwc
for t in 16x2/8a2 32x2/4a2 64x2/4a2 16x2/8 32x2/4; do
  run p1_sk_${t//\//_} --shapes $L1 --batch 1 --dtype fp16 --layout nhwc --algo slicedk_coopmat --tile $t
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la)
