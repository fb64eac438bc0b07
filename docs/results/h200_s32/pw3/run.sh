# Session 32, call 3: pointwise_coopmat's two epilogues side by side (perf-notes 89; call 2's wide
# epilogue ran 1.0-1.5x slower than call 1's per-accumulator one, its store loop left rolled):
#  1. its tests on real cooperative matrices, validation layer on, both epilogues;
#  2. the 8 layers it accepts (../pw/layers.csv), fp16 and bf16 NHWC, b32 and b1: the old choice
#     (VKCONV_POINTWISE_COOPMAT=0), the wide epilogue now unrolled (VKCONV_POINTWISE_WIDE=1) and the
#     per-accumulator one (=0), one binary, every row checked;
#  3. MobileNetV2 and ResNet-50 (b32, b1) and the RDNA1 matrix (b1), fp16 and bf16 NHWC, with the
#     faster epilogue of step 2 (fp16 b32 sum), and cuDNN in the same call.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
L=docs/results/h200_s32/pw/layers.csv
VKCONV_POINTWISE_WIDE=1 tests_validated tests_pw_wide.log 90 '*Pointwise*'
VKCONV_POINTWISE_WIDE=0 tests_validated tests_pw_narrow.log 90 '*Pointwise*'
for dt in fp16 bf16; do for b in 32 1; do
  VKCONV_POINTWISE_COOPMAT=0 RUN_TIMEOUT=60 bench_checked new ${dt}_b${b}_off --shapes $L --batch $b --dtype $dt --layout nhwc
  VKCONV_POINTWISE_WIDE=1 RUN_TIMEOUT=60 bench_checked new ${dt}_b${b}_wide --shapes $L --batch $b --dtype $dt --layout nhwc
  VKCONV_POINTWISE_WIDE=0 RUN_TIMEOUT=60 bench_checked new ${dt}_b${b}_narrow --shapes $L --batch $b --dtype $dt --layout nhwc
done; done
W=$(python3 -c "
import json
s=lambda f: sum(r['us'] for r in json.load(open('$OUT/'+f))['rows'] if r['algo']=='pointwise_coopmat')
print(1 if s('fp16_b32_wide.json') < s('fp16_b32_narrow.json') else 0)")
export VKCONV_POINTWISE_WIDE=$W; say "suites with VKCONV_POINTWISE_WIDE=$W"
S2="--suite mobilenet_v2 --suite resnet50"
for dt in fp16 bf16; do
  RUN_TIMEOUT=90 bench_checked new suites_${dt}_b32 $S2 --batch 32 --dtype $dt --layout nhwc
  RUN_TIMEOUT=60 bench_checked new suites_${dt}_b1 $S2 --suite rdna1_matrix --batch 1 --dtype $dt --layout nhwc
done
say cudnn
timeout 110 python3 bench/torch_baseline.py $S2 --suite rdna1_matrix --config fp16_nhwc --config bf16_nhwc --batch 1 --batch 32 \
  --json $OUT/cudnn.json > $OUT/cudnn.txt 2> $OUT/cudnn.err; echo "exit $?"; grep "call floor" $OUT/cudnn.err
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la)
