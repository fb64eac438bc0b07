# Session 42, call 1: bf16 winograd with scaled fp16 V, U and M (perf-notes 114): the input's and
# the filter's largest magnitudes pick power-of-two scales, the GEMM is fp16's, and the router
# treats bf16 layers as fp16 ones (F(4x4) included), against bf16 V and U (the rule of session 41,
# VKCONV_WINOGRAD_BF16_F16=0) in the same binary; every row checked (max_rel_err against the
# float64 reference in each row): bf16 NHWC every suite at b1 and the b32 suites, old / new; bf16
# NCHW b1 and b32 new; cuDNN 9.19 bf16 NHWC and NCHW b1 and b32 beside them; the winograd and
# packed-filter tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
VKCONV_WINOGRAD_BF16_F16=0 RUN_TIMEOUT=90 bench_checked new bf16_nhwc_b1_old $ALL --batch 1 --dtype bf16 --layout nhwc
RUN_TIMEOUT=90 bench_checked new bf16_nhwc_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
say cudnn
timeout 120 python3 bench/torch_baseline.py $ALL --config bf16_nhwc --config bf16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_bf16.json" > "$OUT/cudnn_bf16.txt" 2> "$OUT/cudnn_bf16.err"
echo "exit $?"
VKCONV_WINOGRAD_BF16_F16=0 RUN_TIMEOUT=120 bench_checked new bf16_nhwc_b32_old $B32 --batch 32 --dtype bf16 --layout nhwc
RUN_TIMEOUT=120 bench_checked new bf16_nhwc_b32 $B32 --batch 32 --dtype bf16 --layout nhwc
RUN_TIMEOUT=90 bench_checked new bf16_nchw_b1 $ALL --batch 1 --dtype bf16 --layout nchw
RUN_TIMEOUT=120 bench_checked new bf16_nchw_b32 $B32 --batch 32 --dtype bf16 --layout nchw
LEFT=$(( 570 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 100 ? LEFT : 100 ))
[ $LEFT -gt 20 ] && tests_validated tests.log $LEFT '*inograd*:*acked*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
