# Session 38, call 8: does winograd, with this session's faster input transform, now beat the
# direct kernels on the 3x3 stride-1 layers the router keeps direct?  fp16 NHWC, checked: the
# router (auto), winograd F(4x4) and F(2x2) forced, the router again; the layers of call 6 that
# did not take winograd (direct3x3_b32.csv, direct3x3_b1.csv).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s38/final
run() { RUN_TIMEOUT=150 bench_checked new "$@"; }
for b in 32 1; do
  run w_b${b}_auto --shapes $D/direct3x3_b$b.csv --batch $b --dtype fp16 --layout nhwc
  run w_b${b}_f4 --shapes $D/direct3x3_b$b.csv --batch $b --dtype fp16 --layout nhwc --algo winograd --tile 4x4
  run w_b${b}_f2 --shapes $D/direct3x3_b$b.csv --batch $b --dtype fp16 --layout nhwc --algo winograd --tile 2x2
  run w_b${b}_auto2 --shapes $D/direct3x3_b$b.csv --batch $b --dtype fp16 --layout nhwc
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results-wino3x3.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
