# Session 52, call 6: the README's fp16 NCHW b1 column (last made in session 47) with this
# session's build and cuDNN 9.19 in the same call: all six suites at b1, every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
RUN_TIMEOUT=120 bench_checked new fp16_nchw_b1 --batch 1 --dtype fp16 --layout nchw
say cudnn
LEFT=$(( 230 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --config fp16_nchw --batch 1 --json "$OUT/cudnn_nchw_b1.json" > "$OUT/cudnn_nchw_b1.txt" 2> "$OUT/cudnn_nchw_b1.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err 2>/dev/null; rm -f *.json *.txt *.err; ls -la | head)
