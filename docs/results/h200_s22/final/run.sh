# Session 22, call 8: the README's fp16 and bf16 NHWC columns at 5948ec3 (the 32-wide coopmat tile,
# perf-notes 57; the same build as call 7, narrow2/, whose validation-layer tests passed): the
# device's peaks and call floor first (--peak), fp16 and bf16 b1 on the six suites and b32 on four,
# every row checked; cuDNN fp16 and bf16 NHWC in the same call.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
say peak; RUN_TIMEOUT=200 run_build new --peak > "$OUT/peak.txt" 2>&1; echo "exit $?"; grep -E "call floor|dispatch alone" "$OUT/peak.txt"
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for dt in fp16 bf16; do
  RUN_TIMEOUT=100 bench_checked new ${dt}_b1 $ALL --batch 1 --dtype $dt --layout nhwc
  RUN_TIMEOUT=100 bench_checked new ${dt}_b32 $B32 --batch 32 --dtype $dt --layout nhwc
done
say cudnn
timeout 190 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn.err"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
