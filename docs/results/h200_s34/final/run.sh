# Session 34, call 4: the final build beside cuDNN, and its tests:
#  1. fp16 NHWC: b1 every suite and b32 ($B32) with the router, then b1 again with the session's two
#     kernels off (VKCONV_SLICEDK=0 VKCONV_DEPTHWISE_TILED=0); bf16 NHWC b1 every suite, same pair;
#  2. cuDNN (fp16 / bf16 NHWC, b1 and b32) in the same call;
#  3. the depthwise, pointwise, sliced-K, matrix-kernel routing and edge tests (validation layer on),
#     then the random sweep in the time left.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=90 bench_checked new fp16_b1 $ALL --batch 1 --dtype fp16 --layout nhwc
RUN_TIMEOUT=150 bench_checked new fp16_b32 $B32 --batch 32 --dtype fp16 --layout nhwc
VKCONV_SLICEDK=0 VKCONV_DEPTHWISE_TILED=0 RUN_TIMEOUT=90 bench_checked new fp16_b1_off $ALL --batch 1 --dtype fp16 --layout nhwc
RUN_TIMEOUT=90 bench_checked new bf16_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
VKCONV_SLICEDK=0 VKCONV_DEPTHWISE_TILED=0 RUN_TIMEOUT=90 bench_checked new bf16_b1_off $ALL --batch 1 --dtype bf16 --layout nhwc
say cudnn
timeout 150 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn.err"
LEFT=$(( 540 - ($(date +%s) - T0) ))
[ $LEFT -gt 60 ] && tests_validated tests_final.log $(( LEFT > 200 ? 200 : LEFT )) '*Depthwise*:*Pointwise*:*SlicedK*:*Routing*:*EdgeTest*:*BufferViewOffsets*'
LEFT=$(( 560 - ($(date +%s) - T0) ))
[ $LEFT -gt 30 ] && tests_validated tests_sweep.log $LEFT 'Random/Sweep.*'
grep -E '^\[  FAILED|Segmentation|Validation Error' "$OUT"/tests_*.log | head
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la)
