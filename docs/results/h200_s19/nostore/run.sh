# Session 19, call 8 (profiling): the coopmat GEMM with its epilogue's global stores left out
# (VKCONV_COOPMAT_ABLATE_STORES=1, ablate_stores.patch: every value still computed, none stored;
# unchecked, the results wrong by design) against the same build storing them (checked), on
# ../ksweep/kgemm.csv under 128x256x32/2x4s1 and 192x128x64/4x4s1: does the per-tile cost a of
# perf-notes 48 come from the stores?
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
K="--shapes docs/results/h200_s19/ksweep/kgemm.csv --batch 1 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat"
for t in 128x256x32/2x4s1 192x128x64/4x4s1; do
  n=$(echo $t | tr '/' '_')
  RUN_TIMEOUT=60 bench_checked new st_$n $K --tile $t/s1
  say "nostore $t"
  VKCONV_COOPMAT_ABLATE_STORES=1 RUN_TIMEOUT=60 run_build new $K --tile $t/s1 --json "$OUT/nost_$n.json" > "$OUT/nost_$n.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/nost_$n.txt" | grep -vE '^(== |suite |$)'
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
