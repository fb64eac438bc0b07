# Session 22, call 6: the 32-wide coopmat tiles (64x32x16/2x1, 128x32x32/4x1) for 16-36 filters.
# Tests of the new tiles (validation layer on); narrow.csv (MobileNetV2's five 16-32-filter 1x1
# layers, RetinaNet box_out_13/7) at b1 and b32: both new tiles and the two they replace forced;
# then the router, old build (OLD_BUILD: main at 357b010) against new, on MobileNetV2 and
# RetinaNet at b1 and b32.  fp16 NHWC, every row checked.
[ -f .carry/old/bin/vkconv-bench.xz ] && xz -d .carry/old/bin/vkconv-bench.xz
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s22/narrow
tests_validated tests.log 150 '*64x32x16*:*128x32x32*:coopmat/CoopmatShapes.*:CoopmatRouting.*'
for b in 32 1; do
  F="--shapes $D/narrow.csv --batch $b --dtype fp16 --layout nhwc --warmup-ms 100"
  for t in 64x32x16/2x1 128x32x32/4x1 128x128x16/2x4 64x64x32/2x2 256x64x32/4x2s1; do
    RUN_TIMEOUT=60 bench_checked new b${b}_${t//\//_} $F --algo implicit_gemm_coopmat --tile $t | head -1
  done
done
for b in 32 1; do
  A="--suite mobilenet_v2 --suite retinanet_head --batch $b --dtype fp16 --layout nhwc"
  for v in old new old new; do
    RUN_TIMEOUT=150 bench_checked $v auto_b${b}_$v$( [ -f $OUT/auto_b${b}_$v.json ] && echo 2) $A | head -3
  done
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
