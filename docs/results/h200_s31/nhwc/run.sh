# Session 31, call 4: the README's 16-bit NHWC columns with lean load addressing
# (perf-notes 86), beside cuDNN in the same call:
#  - vkconv fp16 NHWC at b32 (four batch suites) and b1 (every suite); cuDNN fp16 and bf16 NHWC
#    at b1 and b32 on the same rows; then vkconv bf16 NHWC b1 and b32 in the time left.
# Every vkconv row checked against the float64 reference.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=160 bench_checked new fp16_b32 $B32 --batch 32 --dtype fp16 --layout nhwc
RUN_TIMEOUT=80 bench_checked new fp16_b1 $ALL --batch 1 --dtype fp16 --layout nhwc
say cudnn
timeout 110 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn_nhwc.json" > "$OUT/cudnn_nhwc.txt" 2> "$OUT/cudnn_nhwc.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn_nhwc.err"
LEFT=$(( 555 - ($(date +%s) - T0) ))
[ $LEFT -gt 30 ] && RUN_TIMEOUT=$(( LEFT < 90 ? LEFT : 90 )) bench_checked new bf16_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
LEFT=$(( 560 - ($(date +%s) - T0) ))
[ $LEFT -gt 30 ] && RUN_TIMEOUT=$LEFT bench_checked new bf16_b32 $B32 --batch 32 --dtype bf16 --layout nhwc
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err && rm -f *.json *.txt *.err; ls)
