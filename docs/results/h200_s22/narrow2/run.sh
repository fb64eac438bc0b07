# Session 22, call 7: 64x32x16/2x1 rated 0.40 (the fit to call 6, narrow/), 128x32x32/4x1 dropped,
# and 9-16 filters no longer sent to the scalar kernel: the router, old build (OLD_BUILD: main at
# 357b010) against new, on MobileNetV2 fp16 and bf16 at b32 and b1 (new / old / new for fp16 b32),
# every row checked; the coopmat tile and routing tests with the validation layer first.
[ -f .carry/old/bin/vkconv-bench.xz ] && xz -d .carry/old/bin/vkconv-bench.xz
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 240 'coopmat*:CoopmatRouting.*:*Shapes*:*Router*'
for dt in fp16 bf16; do
  for b in 32 1; do
    A="--suite mobilenet_v2 --batch $b --dtype $dt --layout nhwc"
    vs="new old"; [ $dt$b = fp1632 ] && vs="new old new"
    for v in $vs; do
      n=${dt}_b${b}_$v; [ -f $OUT/$n.json ] && n=${n}2
      RUN_TIMEOUT=120 bench_checked $v $n $A | head -2
    done
  done
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
