# Session 44, call 2: bf16 stores through VK_KHR_shader_bfloat16's conversion under the
# RoundingModeRTE execution mode (VKCONV_NATIVE_BF16=rte: depthwise_bf16r, winograd's bf16 output
# transforms) against the integer round-to-nearest-even (default) and the plain conversion
# (VKCONV_NATIVE_BF16=1, depthwise only) in one binary: the rounding test with the validation
# layer in each mode, then MobileNetV2 / VGG-16 / RetinaNet bf16 NHWC b32 and every suite at b1,
# every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
$C/bin/vkconv-info > "$OUT/info.txt" 2>&1; grep -i "rte" "$OUT/info.txt"
VKCONV_NATIVE_BF16=rte tests_validated tests_rte.log 100 '*Bf16StoresRoundToNearestEven*:*ScaledRange*'
VKCONV_NATIVE_BF16=1 tests_validated tests_native.log 60 '*Bf16StoresRoundToNearestEven*'
VKCONV_NATIVE_BF16=rte RUN_TIMEOUT=100 bench_checked new rte_b32 $B32 --batch 32 --dtype bf16 --layout nhwc --passes
RUN_TIMEOUT=100 bench_checked new int_b32 $B32 --batch 32 --dtype bf16 --layout nhwc --passes
VKCONV_NATIVE_BF16=1 RUN_TIMEOUT=60 bench_checked new native_mbv2_b32 --suite mobilenet_v2 --batch 32 --dtype bf16 --layout nhwc
VKCONV_NATIVE_BF16=rte RUN_TIMEOUT=80 bench_checked new rte_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
RUN_TIMEOUT=80 bench_checked new int_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
LEFT=$(( 570 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 150 ? LEFT : 150 ))
[ $LEFT -gt 20 ] && VKCONV_NATIVE_BF16=rte tests_validated tests_rte_bf16.log $LEFT '*bf16*:*Bf16*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
