# Session 38, call 1: winograd's chunks sized to stay in L2.  fp16 NHWC, router (winograd on all
# nine layers), checked, PlanOptions::workspaceLimit swept: with V + M of a chunk under ~30-40 MB
# the GEMM reads V and the output transform reads M from L2 rather than DRAM, at the price of
# three dependent dispatches per chunk and smaller GEMM grids (perf-notes 103).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s38/l2
run() { RUN_TIMEOUT=120 bench_checked new "$@"; }
for pass in 1 2; do
  W="512 128 64 48 32 24"; [ $pass = 2 ] && W="32 48 512"   # the second pass in reverse: drift shows
  for ws in $W; do
    run b1_ws${ws}_p$pass --shapes $D/b1.csv --batch 1 --dtype fp16 --layout nhwc --workspace-mib $ws
    run b32_ws${ws}_p$pass --shapes $D/b32.csv --batch 32 --dtype fp16 --layout nhwc --workspace-mib $ws
  done
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
