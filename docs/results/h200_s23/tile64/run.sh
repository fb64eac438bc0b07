# Session 23, call 2.  Diagnostics first (profiling build: ablate.patch of call 1 plus
# VKCONV_COOPMAT_BARRIER=1, the slice loop's barriers without memory semantics; not a conformant
# shared-memory handoff, measured only), then the 64-deep 64x64 tile (64x64x64/2x2, rated from
# call 1) through the router: its tests with the validation layer, and old (OLD_BUILD: main at
# cdedd50) against new on fp16 b1 (all suites, twice each).  Router rows checked.
[ -f .carry/old/bin/vkconv-bench.xz ] && xz -d .carry/old/bin/vkconv-bench.xz
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s23/tile64; L=docs/results/h200_s23/lone/lone.csv
rows() { python3 -c "import json,sys; print(' '.join('%s=%.1f'%(r['layer'].replace('layer',''),r['us']) for r in json.load(open(sys.argv[1]))['rows']))" "$1"; }
diag() {  # diag NAME SHAPES BATCH TILE CHECK(0|1) [ENV...]
  local n=$1 f=$2 b=$3 t=$4 c=$5; shift 5
  local chk=; [ "$c" = 1 ] && chk=--check
  env "$@" timeout 60 $C/bin/vkconv-bench --suites-dir bench/suites --shapes $f --batch $b \
    --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile $t $chk --warmup-ms 100 --json $OUT/$n.json > $OUT/$n.txt 2>&1
  echo "$n exit $? $(grep -E '^[0-9]+ passed' $OUT/$n.txt) $(rows $OUT/$n.json)"
}
diag b1_64x64_L0 $L 1 64x64x32/2x2/s1 1 X=0
diag b1_64x64_bar1 $L 1 64x64x32/2x2/s1 1 VKCONV_COOPMAT_BARRIER=1
diag b1_64x64_bar1_ahead1 $L 1 64x64x32/2x2/s1 0 VKCONV_COOPMAT_BARRIER=1 VKCONV_COOPMAT_AHEAD2=0
diag b1_64x64_L4_ahead1 $L 1 64x64x32/2x2/s1 0 VKCONV_COOPMAT_ABLATE=4 VKCONV_COOPMAT_AHEAD2=0
diag b1_64x64_L4 $L 1 64x64x32/2x2/s1 0 VKCONV_COOPMAT_ABLATE=4
diag b1_64x64x64_bar1 $L 1 64x64x64/2x2/s1 1 VKCONV_COOPMAT_BARRIER=1
diag b1_64x64x64_2x4 $L 1 64x64x64/2x4/s1 1 X=0
diag b32_192_L0 $L 32 192x128x64/4x4s1/s1 1 X=0
diag b32_192_bar1 $L 32 192x128x64/4x4s1/s1 1 VKCONV_COOPMAT_BARRIER=1
diag b32big_128x256_L0 $D/big.csv 32 128x256x32/2x4s1/s1 1 X=0
diag b32big_128x256_bar1 $D/big.csv 32 128x256x32/2x4s1/s1 1 VKCONV_COOPMAT_BARRIER=1
diag b32big_192_L0 $D/big.csv 32 192x128x64/4x4s1/s1 1 X=0
diag b32big_192_bar1 $D/big.csv 32 192x128x64/4x4s1/s1 1 VKCONV_COOPMAT_BARRIER=1
tests_validated tests.log 120 'coopmat/CoopmatTiles.*64x64x64*:CoopmatRouting.*:coopmat/CoopmatShapes.*'
A1="--dtype fp16 --layout nhwc --batch 1"
for v in old new old new; do
  RUN_TIMEOUT=90 bench_checked $v fp16_b1_$v$( [ -f $OUT/fp16_b1_$v.json ] && echo 2) $A1 | head -6
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
