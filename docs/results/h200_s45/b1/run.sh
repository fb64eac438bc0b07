# Session 45, call 1: winograd's filter transform in the first input transform's dispatch
# (winograd_input.comp WITH_FILTER; the router prices one pass fewer) against the filter pass of
# its own and the old pricing (VKCONV_WINOGRAD_SEPARATE_FILTER=1) in one binary, batch 1, on every
# 3x3 stride-1 layer of the suites (wino3x3.csv: 38 layers), every row checked: fp16 NHWC twice
# (the first pair with --passes), bf16 NHWC, fp16 / bf16 / fp32 NCHW; then the winograd and
# packed-filter tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
W="--shapes docs/results/h200_s45/wino3x3.csv --batch 1"
RUN_TIMEOUT=60 bench_checked new fp16_nhwc $W --dtype fp16 --layout nhwc --passes
VKCONV_WINOGRAD_SEPARATE_FILTER=1 RUN_TIMEOUT=60 bench_checked new fp16_nhwc_sep $W --dtype fp16 --layout nhwc --passes
RUN_TIMEOUT=50 bench_checked new fp16_nhwc_2 $W --dtype fp16 --layout nhwc
VKCONV_WINOGRAD_SEPARATE_FILTER=1 RUN_TIMEOUT=50 bench_checked new fp16_nhwc_sep_2 $W --dtype fp16 --layout nhwc
RUN_TIMEOUT=50 bench_checked new bf16_nhwc $W --dtype bf16 --layout nhwc
VKCONV_WINOGRAD_SEPARATE_FILTER=1 RUN_TIMEOUT=50 bench_checked new bf16_nhwc_sep $W --dtype bf16 --layout nhwc
RUN_TIMEOUT=55 bench_checked new fp16_nchw $W --dtype fp16 --layout nchw
VKCONV_WINOGRAD_SEPARATE_FILTER=1 RUN_TIMEOUT=55 bench_checked new fp16_nchw_sep $W --dtype fp16 --layout nchw
RUN_TIMEOUT=55 bench_checked new bf16_nchw $W --dtype bf16 --layout nchw
VKCONV_WINOGRAD_SEPARATE_FILTER=1 RUN_TIMEOUT=55 bench_checked new bf16_nchw_sep $W --dtype bf16 --layout nchw
LEFT=$(( 560 - ($(date +%s) - T0) ))
if [ $LEFT -gt 90 ]; then
  RUN_TIMEOUT=35 bench_checked new fp32_nchw $W --dtype fp32 --layout nchw
  VKCONV_WINOGRAD_SEPARATE_FILTER=1 RUN_TIMEOUT=35 bench_checked new fp32_nchw_sep $W --dtype fp32 --layout nchw
fi
LEFT=$(( 570 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 90 ? LEFT : 90 ))
[ $LEFT -gt 15 ] && tests_validated tests.log $LEFT '*FilterInInputDispatch*:WinogradCoopmat.*:*ScaledRange*:*Fp16Overflow*:*acked*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la | head)
