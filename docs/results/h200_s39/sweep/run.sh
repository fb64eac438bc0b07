# Session 39, call 1: the forced sweep for winograd's refit (perf-notes 106): every 3x3 stride-1
# layer of the suites (fp16 NHWC, checked; b32: the three suites that have them, b1: five), each
# four ways in one call: the router, the router without winograd (--no-winograd), F(4x4) and
# F(2x2) forced.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s39/sweep
run() { RUN_TIMEOUT=170 bench_checked new "$@"; }
for b in 32 1; do
  A="--shapes $D/wino3x3_b$b.csv --batch $b --dtype fp16 --layout nhwc"
  run s_b${b}_auto $A
  run s_b${b}_direct $A --no-winograd
  run s_b${b}_f4 $A --algo winograd --tile 4x4
  run s_b${b}_f2 $A --algo winograd --tile 2x2
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
