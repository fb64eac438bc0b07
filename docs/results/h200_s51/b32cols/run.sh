# Session 51, call 8: the README's fp16 NHWC and bf16 NHWC b32 columns with the final build
# (9c49775: raw rows and the stem's 64-column blocks), over the four suites the anchors time at
# 32, every row checked, then cuDNN on the same rows in the same call.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
RUN_TIMEOUT=150 bench_checked new fp16_nhwc_b32 $B32 --batch 32 --dtype fp16 --layout nhwc
RUN_TIMEOUT=150 bench_checked new bf16_nhwc_b32 $B32 --batch 32 --dtype bf16 --layout nhwc
say cudnn
LEFT=$(( 560 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py $B32 --config fp16_nhwc --config bf16_nhwc --batch 32 --json "$OUT/cudnn_b32.json" > "$OUT/cudnn_b32.txt" 2> "$OUT/cudnn_b32.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err && rm -f *.json *.txt *.err; ls -la | head)
