# Session 49, call 3 (the build of call 2): the README's fp16 NHWC and bf16 NHWC batch-32 columns
# on the four batch-32 suites, every row checked, with cuDNN 9.19 fp16 NHWC and bf16 NHWC at b32 in
# the same call (the 4-filter NHWC stores move RetinaNet's box heads, perf-notes 131).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
RUN_TIMEOUT=120 bench_checked new fp16_nhwc_b32 $B32 --batch 32 --dtype fp16 --layout nhwc
RUN_TIMEOUT=120 bench_checked new bf16_nhwc_b32 $B32 --batch 32 --dtype bf16 --layout nhwc
say cudnn
LEFT=$(( 585 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py $B32 --config fp16_nhwc --config bf16_nhwc --batch 32 --json "$OUT/cudnn_b32.json" > "$OUT/cudnn_b32.txt" 2> "$OUT/cudnn_b32.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err && rm -f *.json *.txt *.err; ls -la | head)
