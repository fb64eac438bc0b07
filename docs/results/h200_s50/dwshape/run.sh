# Session 50, call 7: `depthwise`'s NHWC path specialized on the layer's sizes (perf-notes 135-136)
# against its push-constant sizes (VKCONV_DEPTHWISE_SPEC_SHAPE=0), one binary, MobileNetV2's ten
# depthwise layers (`../dw.csv`): fp16 NHWC b32 (old, new, twice), bf16 NHWC b32, fp16 NHWC b1;
# every row checked.  Then the depthwise tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
F=docs/results/h200_s50/dw.csv
for run in fp16_b32_1:fp16:32 bf16_b32_1:bf16:32 fp16_b1_1:fp16:1 fp16_b32_2:fp16:32; do
  IFS=: read name dt b <<< "$run"
  VKCONV_DEPTHWISE_SPEC_SHAPE=0 RUN_TIMEOUT=60 bench_checked new old_$name --shapes $F --batch $b --dtype $dt --layout nhwc --algo depthwise
  RUN_TIMEOUT=60 bench_checked new new_$name --shapes $F --batch $b --dtype $dt --layout nhwc --algo depthwise
done
RUN_TIMEOUT=60 bench_checked new router_fp16_b32 --shapes $F --batch 32 --dtype fp16 --layout nhwc
tests_validated tests.log 120 '*Depthwise*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la | head)
