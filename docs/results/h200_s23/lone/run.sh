# Session 23, call 1: where a coopmat slice's time goes when a workgroup is (nearly) alone on its
# SM.  Profiling build (ablate.patch: VKCONV_COOPMAT_ABLATE bits 1 no global loads in the loop,
# 2 no staging stores, 4 no barriers, 8 no matrix products; those rows are wrong by design and
# unchecked; level 0 rows are checked), fp16 NHWC, five ResNet-50 layers (lone.csv) at b1 with
# 64x64x32/2x2 and 128x128x64/2x4s1 forced unsplit, and at b32 with 192x128x64/4x4s1; two
# candidate tiles (64x64x64/2x2, 64x64x32/2x4) forced and checked; AHEAD2 off against on; then
# the driver's register counts of every coopmat pipeline (--shader-stats).
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s23/lone
rows() { python3 -c "import json,sys; print(' '.join('%s=%.1f'%(r['layer'].replace('layer',''),r['us']) for r in json.load(open(sys.argv[1]))['rows']))" "$1"; }
abl() {  # abl NAME LEVEL BATCH TILE [ENV...]
  local n=$1 l=$2 b=$3 t=$4; shift 4
  local chk=; [ "$l" = 0 ] && chk=--check
  env VKCONV_COOPMAT_ABLATE=$l "$@" timeout 60 $C/bin/vkconv-bench --suites-dir bench/suites --shapes $D/lone.csv --batch $b \
    --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile $t $chk --warmup-ms 100 --json $OUT/$n.json > $OUT/$n.txt 2>&1
  echo "$n exit $? $(grep -E '^[0-9]+ passed' $OUT/$n.txt) $(rows $OUT/$n.json)"
}
for rep in 1 2; do
  for l in 0 1 3 7 15 8 4; do abl b1_64x64_L${l}_r$rep $l 1 64x64x32/2x2/s1; done
  abl b1_64x64_ahead1_r$rep 0 1 64x64x32/2x2/s1 VKCONV_COOPMAT_AHEAD2=0
done
for l in 0 1 3 7 15 8; do abl b1_128x128x64_L$l $l 1 128x128x64/2x4s1/s1; done
for l in 0 1 3 7 15 8; do abl b32_192x128x64_L$l $l 32 192x128x64/4x4s1/s1; done
for t in 64x64x64/2x2 64x64x32/2x4; do
  for b in 1 32; do abl b${b}_new_${t//\//_} 0 $b $t/s1; done
done
abl b1_64x64_s4 0 1 64x64x32/2x2/s4
abl b1_64x64x64_s4 0 1 64x64x64/2x2/s4
say "shader stats"
timeout 200 $C/bin/vkconv-bench --shader-stats --algo implicit_gemm_coopmat --json $OUT/stats.json > $OUT/stats.txt 2>&1
echo "exit $?"; grep -E "64x32x16|64x64x64|64x64x32|192x128x64/4x4|128x256" $OUT/stats.txt | awk '{print $5, $6, $NF, $(NF-1), $(NF-2)}' | sort -u | head -40
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
