# Session 36, call 5: the routed k-tiles under split-K, forced, on item 97's 27 b1 layers (fp16
# NHWC, every row checked): the router, then 32x64x64/2x2k2 and 64x64x64/2x2k2 with 2, 4 and 8
# splits (split-K's second pass beside a k-tile's shorter per-group runs).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s36/ksplit
run() { RUN_TIMEOUT=60 bench_checked new "$@"; }
run b1_auto --shapes $D/b1.csv --batch 1 --dtype fp16 --layout nhwc
for t in 32x64x64/2x2k2 64x64x64/2x2k2; do for s in 2 4 8; do
  run b1_${t//\//_}_s$s --shapes $D/b1.csv --batch 1 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile $t/s$s
done; done
run b1_auto2 --shapes $D/b1.csv --batch 1 --dtype fp16 --layout nhwc
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la)
