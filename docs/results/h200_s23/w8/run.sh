# Session 23, call 5.  (1) --peak with the new cache-read probe, first version (it re-read what
# each SM's L1 held: fixed before call 6, see ../README.md; what the implicit GEMMs stage
# their operands from).  (2) 64x64x32/2x4 (eight subgroups, 32-deep; in the table forced-only)
# against 64x64x32/2x2 on the 19 layers the router gave 64x64x32/2x2 in final/ (w8.csv), fp16
# NHWC, b1 with 1-16 splits and b32 with 1-2, every row checked; the router's own rows beside.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
W=docs/results/h200_s23/w8/w8.csv
say peak; RUN_TIMEOUT=90 run_build new --peak > "$OUT/peak.txt" 2>&1; echo "exit $?"; grep -E "cache read|copy|call floor|16x16x16 f16" "$OUT/peak.txt"
f() {  # f NAME BATCH [ARGS]
  local n=$1 b=$2; shift 2
  RUN_TIMEOUT=60 run_build new --shapes $W --batch $b --dtype fp16 --layout nhwc --check --warmup-ms 100 --json $OUT/$n.json "$@" > $OUT/$n.txt 2>&1
  echo "$n exit $? $(grep -E '^[0-9]+ passed' $OUT/$n.txt) $(sed -n '/== Summary/,$p' $OUT/$n.txt | grep -E '^[a-z]' | grep -v '^suite' | awk '{printf "%s=%s ", $1, $(NF-3)}')"
}
f b1_auto 1
f b32_auto 32
for t in 64x64x32/2x4 64x64x32/2x2; do
  for s in 1 2 4 8 16; do f b1_${t//\//_}_s$s 1 --algo implicit_gemm_coopmat --tile $t/s$s; done
  for s in 1 2; do f b32_${t//\//_}_s$s 32 --algo implicit_gemm_coopmat --tile $t/s$s; done
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
