# Session 43, call 6: the final build (bf16 depthwise back on the integer round-to-nearest-even
# stores, perf-notes 118): bf16 NHWC b32 and bf16 NCHW b1 and b32, every row checked, with cuDNN
# 9.19 bf16 NHWC b32 and NCHW b1 and b32 beside them (the README's bf16 NHWC b32 and bf16 NCHW
# columns); the depthwise tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=100 bench_checked new bf16_nhwc_b32 $B32 --batch 32 --dtype bf16 --layout nhwc
RUN_TIMEOUT=90 bench_checked new bf16_nchw_b1 $ALL --batch 1 --dtype bf16 --layout nchw
say cudnn
timeout 110 python3 bench/torch_baseline.py $ALL --config bf16_nhwc --config bf16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_bf16.json" > "$OUT/cudnn_bf16.txt" 2> "$OUT/cudnn_bf16.err"
echo "exit $?"
RUN_TIMEOUT=100 bench_checked new bf16_nchw_b32 $B32 --batch 32 --dtype bf16 --layout nchw
LEFT=$(( 480 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 50 ? LEFT : 50 ))
[ $LEFT -gt 15 ] && tests_validated tests.log $LEFT '*bf16*__depthwise:*epthwise*bf16*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
