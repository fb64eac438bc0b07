# Session 23, call 3.  (1) The 64-deep 64x64 tile's tests with the validation layer (call 2's
# pack lacked the layer).  (2) Diagnostic: ALT_BUILD = this build with the coopmat kernel's
# 16-byte input and filter views declared `volatile` (volatile.patch), i.e. global loads the
# compiler may not move, against the same build without; checked.  (3) 64x64x64/2x4 (8
# subgroups) against /2x2 at b32 and at b1 with 2 and 4 splits (lone.csv).  (4) The router with
# 64x64x64/2x2 kept off reductions of fewer than 3 slices, old (main at cdedd50) against new on
# fp16 b1, twice each.  fp16 NHWC throughout.
for b in old alt; do [ -f .carry/$b/bin/vkconv-bench.xz ] && xz -d .carry/$b/bin/vkconv-bench.xz; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
L=docs/results/h200_s23/lone/lone.csv; G=docs/results/h200_s23/tile64/big.csv
rows() { python3 -c "import json,sys; print(' '.join('%s=%.1f'%(r['layer'].replace('layer',''),r['us']) for r in json.load(open(sys.argv[1]))['rows']))" "$1"; }
diag() {  # diag BUILD NAME SHAPES BATCH TILE
  local v=$1 n=$2 f=$3 b=$4 t=$5
  RUN_TIMEOUT=60 run_build $v --shapes $f --batch $b --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile $t \
    --check --warmup-ms 100 --json $OUT/$n.json > $OUT/$n.txt 2>&1
  echo "$n exit $? $(grep -E '^[0-9]+ passed' $OUT/$n.txt) $(rows $OUT/$n.json)"
}
tests_validated tests.log 150 'coopmat/CoopmatTiles.*64x64x64*:CoopmatRouting.*:coopmat/CoopmatShapes.*'
for v in new alt; do
  diag $v b1_64x64_$v $L 1 64x64x32/2x2/s1
  diag $v b1_64x64x64_$v $L 1 64x64x64/2x2/s1
  diag $v b32_192_$v $L 32 192x128x64/4x4s1/s1
  diag $v b32big_128x256_$v $G 32 128x256x32/2x4s1/s1
done
diag new b32_64x64x64_2x4 $L 32 64x64x64/2x4/s1
for s in 2 4; do
  diag new b1_64x64x64_2x2_s$s $L 1 64x64x64/2x2/s$s
  diag new b1_64x64x64_2x4_s$s $L 1 64x64x64/2x4/s$s
done
A1="--dtype fp16 --layout nhwc --batch 1"
for v in old new old new; do
  RUN_TIMEOUT=90 bench_checked $v fp16_b1_$v$( [ -f $OUT/fp16_b1_$v.json ] && echo 2) $A1 | head -6
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
