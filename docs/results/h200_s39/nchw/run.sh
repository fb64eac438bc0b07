# Session 39, call 5: fp16 NCHW b1 on every 3x3 stride-1 layer (sweep/wino3x3_b1.csv): the router
# (mostly coopmat_nhwc: transposes + an NHWC kernel) against plain winograd F(2x2) and F(4x4)
# forced (NCHW read and written by its own transforms, no transposes), twice in alternation,
# checked.  Item 108 saw plain winograd win on nine small layers once its filter pass was packed.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
S=docs/results/h200_s39/sweep/wino3x3_b1.csv
for r in 1 2; do
  RUN_TIMEOUT=100 bench_checked new n_auto$r --shapes $S --batch 1 --dtype fp16 --layout nchw
  RUN_TIMEOUT=150 bench_checked new n_f2_$r --shapes $S --batch 1 --dtype fp16 --layout nchw --algo winograd --tile 2x2
  RUN_TIMEOUT=150 bench_checked new n_f4_$r --shapes $S --batch 1 --dtype fp16 --layout nchw --algo winograd --tile 4x4
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
