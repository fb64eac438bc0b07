# Session 19, call 2: where winograd's time goes on the H200, and its NHWC transforms with eight
# channels (filters) per invocation (OCTS, 16-byte loads and stores) against two (PAIRS,
# VKCONV_WINOGRAD_NO_OCTS=1), same build, same call.  Forced winograd, fp16 NHWC, on the layers the
# router sends to it (wino_b32.csv at b32, wino_b1.csv at b1; from ../../h200_s18/tiles2).
# The skip_* runs leave passes out (VKCONV_WINOGRAD_SKIP, profiling only: unchecked, wrong results).
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s19/wino
tests_validated tests.log 150 '*inograd*'
F="--dtype fp16 --layout nhwc --algo winograd"
RUN_TIMEOUT=80 bench_checked new b32_octs --shapes $D/wino_b32.csv --batch 32 $F
VKCONV_WINOGRAD_NO_OCTS=1 RUN_TIMEOUT=80 bench_checked new b32_pairs --shapes $D/wino_b32.csv --batch 32 $F
for s in i o g io fio; do
  say "skip $s"
  VKCONV_WINOGRAD_SKIP=$s RUN_TIMEOUT=60 run_build new --shapes $D/wino_b32.csv --batch 32 $F --json "$OUT/b32_skip_$s.json" > "$OUT/b32_skip_$s.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/b32_skip_$s.txt" | grep -vE '^(== |suite |$)'
done
VKCONV_WINOGRAD_NO_OCTS=1 VKCONV_WINOGRAD_SKIP=io RUN_TIMEOUT=60 run_build new --shapes $D/wino_b32.csv --batch 32 $F --json "$OUT/b32_pairs_skip_io.json" > "$OUT/b32_pairs_skip_io.txt" 2>&1
RUN_TIMEOUT=50 bench_checked new b1_octs --shapes $D/wino_b1.csv --batch 1 $F
VKCONV_WINOGRAD_NO_OCTS=1 RUN_TIMEOUT=50 bench_checked new b1_pairs --shapes $D/wino_b1.csv --batch 1 $F
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
