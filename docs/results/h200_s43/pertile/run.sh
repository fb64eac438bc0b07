# Session 43, call 1: scaled bf16 winograd with per-tile and per-filter exponents chosen inside
# the input and filter transforms (no range pass, no finalize: LOCAL_SCALE), against the range
# pass in the same binary (VKCONV_WINOGRAD_GLOBAL_SCALE=1, which also restores its routing): bf16
# NHWC b1 and b32, every row checked; cuDNN 9.19 bf16 NHWC b1 and b32 beside them; the scaled-range,
# winograd-coopmat and packed-filter tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
OLD1="--suite vgg16 --suite retinanet_head --suite sd_vae_decoder --suite rdna1_matrix"
OLD32="--suite resnet50 --suite vgg16 --suite retinanet_head"
VKCONV_WINOGRAD_GLOBAL_SCALE=1 RUN_TIMEOUT=80 bench_checked new bf16_nhwc_b1_old $OLD1 --batch 1 --dtype bf16 --layout nhwc
RUN_TIMEOUT=90 bench_checked new bf16_nhwc_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
say cudnn
timeout 120 python3 bench/torch_baseline.py $ALL --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn_bf16.json" > "$OUT/cudnn_bf16.txt" 2> "$OUT/cudnn_bf16.err"
echo "exit $?"
VKCONV_WINOGRAD_GLOBAL_SCALE=1 RUN_TIMEOUT=90 bench_checked new bf16_nhwc_b32_old $OLD32 --batch 32 --dtype bf16 --layout nhwc
RUN_TIMEOUT=110 bench_checked new bf16_nhwc_b32 $B32 --batch 32 --dtype bf16 --layout nhwc
LEFT=$(( 560 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 90 ? LEFT : 90 ))
[ $LEFT -gt 20 ] && tests_validated tests.log $LEFT '*ScaledRange*:*winograd_coopmat*:*acked*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
