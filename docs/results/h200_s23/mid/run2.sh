# Session 23, call 8 (data for the winograd small-grid model, perf-notes 59's lead): F(4x4)
# forced on mid.csv at b1 (call 7 ran F(2x2) and the direct tiles), and on b32.csv (four b32 3x3
# layers a 2.5 us pass cost would move to winograd) the router, F(2x2) and F(4x4) at b32.  fp16
# NHWC, every row checked.  HEAD 55d9b83.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s23/mid
f() {  # f NAME SHAPES BATCH [ARGS]
  local n=$1 s=$2 b=$3; shift 3
  RUN_TIMEOUT=90 run_build new --shapes $s --batch $b --dtype fp16 --layout nhwc --check --warmup-ms 100 --json $OUT/$n.json "$@" > $OUT/$n.txt 2>&1
  echo "$n exit $? $(grep -E '^[0-9]+ passed' $OUT/$n.txt) $(sed -n '/== Summary/,$p' $OUT/$n.txt | grep -E '^[a-z]' | grep -v '^suite' | awk '{printf "%s=%s ", $1, $(NF-3)}')"
}
f b1_wino_f4 $D/mid.csv 1 --algo winograd --tile 4x4
f b32_auto $D/b32.csv 32
f b32_wino_f2 $D/b32.csv 32 --algo winograd --tile 2x2
f b32_wino_f4 $D/b32.csv 32 --algo winograd --tile 4x4
(cd "$OUT" && shopt -s nullglob && tar czf results2.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
