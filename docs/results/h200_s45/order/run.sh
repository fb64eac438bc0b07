# Session 45, call 3: where winograd's filter transform goes, in one binary, batch 1, every 3x3
# stride-1 layer of the suites (wino3x3.csv), every row checked: the filter's workgroups after the
# input transform's in its dispatch (the default), ahead of them (VKCONV_WINOGRAD_FILTER_FIRST=1),
# and a pass of its own (VKCONV_WINOGRAD_SEPARATE_FILTER=1); fp16 NHWC twice in rotation, bf16
# NHWC once; then the winograd and packed-filter tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
W="--shapes docs/results/h200_s45/wino3x3.csv --batch 1"
for i in 1 2; do
  RUN_TIMEOUT=40 bench_checked new fp16_last_$i $W --dtype fp16 --layout nhwc
  VKCONV_WINOGRAD_FILTER_FIRST=1 RUN_TIMEOUT=40 bench_checked new fp16_first_$i $W --dtype fp16 --layout nhwc
  VKCONV_WINOGRAD_SEPARATE_FILTER=1 RUN_TIMEOUT=40 bench_checked new fp16_sep_$i $W --dtype fp16 --layout nhwc
done
RUN_TIMEOUT=45 bench_checked new bf16_last $W --dtype bf16 --layout nhwc
VKCONV_WINOGRAD_SEPARATE_FILTER=1 RUN_TIMEOUT=45 bench_checked new bf16_sep $W --dtype bf16 --layout nhwc
LEFT=$(( 330 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 90 ? LEFT : 90 ))
[ $LEFT -gt 15 ] && tests_validated tests.log $LEFT '*FilterInInputDispatch*:*acked*:WinogradCoopmat.*:winograd/*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la | head)
