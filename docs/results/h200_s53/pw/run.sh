# Session 53, call 1: pointwise_coopmat with NCHW activations and outputs (new: channel-major
# staging, column-major fragments and scratch), forced, against the router, on the suites' 1x1
# stride-1 layers of at most 256 channels (../pw_nchw.csv, 19 layers), fp16 and bf16, b32 and b1,
# every row checked; cuDNN NCHW on the same rows in the same call; four forced tiles at fp16 b32;
# the pointwise and routing tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
tests_validated tests.log 150 '*Pointwise*:*CoopmatRouting*:*CoopmatDeclines*'
S="--shapes docs/results/h200_s53/pw_nchw.csv --layout nchw"
for b in 32 1; do
  for dt in fp16 bf16; do
    RUN_TIMEOUT=80 bench_checked new router_${dt}_b$b $S --batch $b --dtype $dt
    RUN_TIMEOUT=80 bench_checked new pw_${dt}_b$b $S --batch $b --dtype $dt --algo pointwise_coopmat
  done
done
for t in 16x32/4 32x32/4 16x64/4p4 32x64/2; do
  RUN_TIMEOUT=80 bench_checked new pw_fp16_b32_${t//\//_} $S --batch 32 --dtype fp16 --algo pointwise_coopmat --tile $t
done
say cudnn
timeout 150 python3 bench/torch_baseline.py --shapes docs/results/h200_s53/pw_nchw.csv --config fp16_nchw --config bf16_nchw --batch 32 --batch 1 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
for f in "$OUT"/*.txt; do printf "%-34s " $(basename $f .txt); sed -n '/== Summary/,$p' $f | grep -vE '^(== |suite |$)' | head -1 | awk '{print $7}'; done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz; ls -la | head)
