# Session 40, call 4: the NCHW output transform's misaligned whole runs (F(4x4) rows at an even or
# odd offset: Q % 4 != 0) stored as two pairs, or a value, a pair and a value, instead of four
# values (perf-notes 111), against the build of 8e99396 ("old", element stores there), same call:
# the router at fp16 NCHW on every 3x3 stride-1 layer with Q % 4 != 0 (odd_q_b{32,1}.csv), per-pass
# times, old/new alternating twice; fp32 NCHW b1 on them old/new once; every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/old/*.xz .carry/old/*/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s40/pairs
run() { RUN_TIMEOUT=120 bench_checked "$@"; }
for r in 1 2; do
  for v in old new; do
    run $v b32_${v}$r --shapes $D/odd_q_b32.csv --batch 32 --dtype fp16 --layout nchw --passes
    run $v b1_${v}$r --shapes $D/odd_q_b1.csv --batch 1 --dtype fp16 --layout nchw --passes
  done
done
for v in old new; do run $v fp32_b1_$v --shapes $D/odd_q_b1.csv --batch 1 --dtype fp32 --layout nchw --passes; done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
