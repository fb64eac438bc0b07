# Session 43, call 5: bf16 winograd's output transform storing through VK_KHR_shader_bfloat16's
# conversions (the winograd*_output_bf16n variants) against the integer round-to-nearest-even in
# the same binary (VKCONV_WINOGRAD_NO_NATIVE_BF16=1): bf16 NHWC b1 and b32, VGG-16 and RetinaNet b32
# with --passes, every row checked; bf16 NCHW b1 and b32 with cuDNN 9.19 bf16 NCHW beside them (the
# README's bf16 NCHW columns); the winograd and packed-filter tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
P="--suite vgg16 --suite retinanet_head --batch 32 --layout nhwc --dtype bf16 --passes"
VKCONV_WINOGRAD_NO_NATIVE_BF16=1 RUN_TIMEOUT=70 bench_checked new passes_int $P
RUN_TIMEOUT=70 bench_checked new passes_native $P
VKCONV_WINOGRAD_NO_NATIVE_BF16=1 RUN_TIMEOUT=70 bench_checked new bf16_nhwc_b1_int $ALL --batch 1 --dtype bf16 --layout nhwc
RUN_TIMEOUT=70 bench_checked new bf16_nhwc_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
RUN_TIMEOUT=80 bench_checked new bf16_nchw_b1 $ALL --batch 1 --dtype bf16 --layout nchw
say cudnn
timeout 90 python3 bench/torch_baseline.py $ALL --config bf16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_bf16_nchw.json" > "$OUT/cudnn_bf16_nchw.txt" 2> "$OUT/cudnn_bf16_nchw.err"
echo "exit $?"
RUN_TIMEOUT=100 bench_checked new bf16_nchw_b32 $B32 --batch 32 --dtype bf16 --layout nchw
LEFT=$(( 570 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 90 ? LEFT : 90 ))
[ $LEFT -gt 20 ] && tests_validated tests.log $LEFT '*inograd*:*acked*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
