# Session 45, call 2: winograd's filter transform in the first input transform's dispatch, its
# workgroups first in the grid and its sums `precise`, the router's pricing as before (no plan
# moves), against the filter pass of its own (VKCONV_WINOGRAD_SEPARATE_FILTER=1) in one binary, on
# every 3x3 stride-1 layer of the suites, every row checked: batch 1 fp16 NHWC twice (the first
# pair with --passes) and bf16 NHWC; batch 32 (the four b32 suites' layers) fp16 and bf16 NHWC;
# fp16 NCHW batch 1 if time allows; then the winograd and packed-filter tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
W="--shapes docs/results/h200_s45/wino3x3.csv --batch 1"
W32="--shapes docs/results/h200_s45/wino3x3_b32.csv --batch 32"
RUN_TIMEOUT=50 bench_checked new fp16_nhwc $W --dtype fp16 --layout nhwc --passes
VKCONV_WINOGRAD_SEPARATE_FILTER=1 RUN_TIMEOUT=50 bench_checked new fp16_nhwc_sep $W --dtype fp16 --layout nhwc --passes
RUN_TIMEOUT=40 bench_checked new fp16_nhwc_2 $W --dtype fp16 --layout nhwc
VKCONV_WINOGRAD_SEPARATE_FILTER=1 RUN_TIMEOUT=40 bench_checked new fp16_nhwc_sep_2 $W --dtype fp16 --layout nhwc
RUN_TIMEOUT=45 bench_checked new bf16_nhwc $W --dtype bf16 --layout nhwc
VKCONV_WINOGRAD_SEPARATE_FILTER=1 RUN_TIMEOUT=45 bench_checked new bf16_nhwc_sep $W --dtype bf16 --layout nhwc
RUN_TIMEOUT=60 bench_checked new fp16_nhwc_b32 $W32 --dtype fp16 --layout nhwc
VKCONV_WINOGRAD_SEPARATE_FILTER=1 RUN_TIMEOUT=60 bench_checked new fp16_nhwc_b32_sep $W32 --dtype fp16 --layout nhwc
RUN_TIMEOUT=60 bench_checked new bf16_nhwc_b32 $W32 --dtype bf16 --layout nhwc
VKCONV_WINOGRAD_SEPARATE_FILTER=1 RUN_TIMEOUT=60 bench_checked new bf16_nhwc_b32_sep $W32 --dtype bf16 --layout nhwc
LEFT=$(( 560 - ($(date +%s) - T0) ))
if [ $LEFT -gt 200 ]; then
  RUN_TIMEOUT=45 bench_checked new fp16_nchw $W --dtype fp16 --layout nchw
  VKCONV_WINOGRAD_SEPARATE_FILTER=1 RUN_TIMEOUT=45 bench_checked new fp16_nchw_sep $W --dtype fp16 --layout nchw
fi
LEFT=$(( 575 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 150 ? LEFT : 150 ))
[ $LEFT -gt 15 ] && tests_validated tests.log $LEFT '*FilterInInputDispatch*:WinogradCoopmat.*:*ScaledRange*:*Fp16Overflow*:*acked*:winograd/*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la | head)
