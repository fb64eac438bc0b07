# Session 43, call 3: per-tile scaled bf16 winograd with its loads ahead of both barriers (the
# maxima zeroed before the loads, B^T d before the exponent's barrier) and the transforms'
# workgroup capped at 128 (VKCONV_WINOGRAD_WG=128, a measurement switch), bf16 and fp16, VGG-16 and
# RetinaNet b32 with a timestamp after every pass (--passes); fp16 winograd's overflow fallback
# (774777f, untimed until now) against VKCONV_WINOGRAD_NO_FALLBACK=1 in the same binary, fp16 NHWC
# b1 and b32, every row checked, with cuDNN 9.19 fp16 NHWC beside them; the scaled-range and
# fp16-overflow tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
P="--suite vgg16 --batch 32 --layout nhwc --passes"
R="--suite retinanet_head --batch 32 --layout nhwc --passes"
RUN_TIMEOUT=40 bench_checked new passes_bf16 $P --dtype bf16
VKCONV_WINOGRAD_WG=128 RUN_TIMEOUT=40 bench_checked new passes_bf16_wg128 $P --dtype bf16
RUN_TIMEOUT=40 bench_checked new passes_fp16 $P --dtype fp16
VKCONV_WINOGRAD_WG=128 RUN_TIMEOUT=40 bench_checked new passes_fp16_wg128 $P --dtype fp16
RUN_TIMEOUT=50 bench_checked new passes_retina_bf16 $R --dtype bf16
RUN_TIMEOUT=50 bench_checked new passes_retina_fp16 $R --dtype fp16
VKCONV_WINOGRAD_NO_FALLBACK=1 RUN_TIMEOUT=80 bench_checked new fp16_nhwc_b1_nofb $ALL --batch 1 --dtype fp16 --layout nhwc
RUN_TIMEOUT=80 bench_checked new fp16_nhwc_b1 $ALL --batch 1 --dtype fp16 --layout nhwc
say cudnn
timeout 100 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn_fp16.json" > "$OUT/cudnn_fp16.txt" 2> "$OUT/cudnn_fp16.err"
echo "exit $?"
VKCONV_WINOGRAD_NO_FALLBACK=1 RUN_TIMEOUT=80 bench_checked new fp16_nhwc_b32_nofb $B32 --batch 32 --dtype fp16 --layout nhwc
RUN_TIMEOUT=80 bench_checked new fp16_nhwc_b32 $B32 --batch 32 --dtype fp16 --layout nhwc
LEFT=$(( 565 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 40 ? LEFT : 40 ))
[ $LEFT -gt 15 ] && tests_validated tests.log $LEFT '*ScaledRange*:*Fp16Overflow*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
