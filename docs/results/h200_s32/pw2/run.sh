# Session 32, call 2: pointwise_coopmat after call 1 (perf-notes 89): the epilogue writes 16 pixels x
# every filter of the slab at once (one contiguous run of outputs with one slab), 16-pixel blocks
# unless the slab is at most 32 filters, and the router's rule (one slab, or at most 32 channels).
#  1. its tests on real cooperative matrices, validation layer on;
#  2. the 8 layers of the suites it accepts (../pw/layers.csv), fp16 and bf16 NHWC at b32 and b1:
#     VKCONV_POINTWISE_COOPMAT=0 (the old choice) and the router, one binary, every row checked;
#  3. a tile sweep at fp16 b32;
#  4. MobileNetV2 and ResNet-50 (b32 and b1) and the RDNA1 matrix (b1), fp16 and bf16 NHWC, with
#     cuDNN in the same call (the README's columns for those suites);
#  5. its registers (machine code).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
L=docs/results/h200_s32/pw/layers.csv
ND=$(which nvdisasm || ls /usr/local/cuda*/bin/nvdisasm | head -1)
tests_validated tests_pw.log 120 '*Pointwise*:CoopmatRouting.*'
for dt in fp16 bf16; do for b in 32 1; do
  VKCONV_POINTWISE_COOPMAT=0 RUN_TIMEOUT=60 bench_checked new ${dt}_b${b}_off --shapes $L --batch $b --dtype $dt --layout nhwc
  RUN_TIMEOUT=60 bench_checked new ${dt}_b${b}_on --shapes $L --batch $b --dtype $dt --layout nhwc
done; done
say sweep
for t in 16x64/4p4 16x64/2p8 16x128/4p4 16x64/4p1 32x64/4p2; do
  n=sweep_${t//\//_}
  RUN_TIMEOUT=40 run_build new --shapes $L --batch 32 --dtype fp16 --layout nhwc --algo pointwise_coopmat --tile $t --check \
    --json $OUT/$n.json > $OUT/$n.txt 2>&1; echo "$t exit $?"
done
S2="--suite mobilenet_v2 --suite resnet50"
for dt in fp16 bf16; do
  RUN_TIMEOUT=90 bench_checked new suites_${dt}_b32 $S2 --batch 32 --dtype $dt --layout nhwc
  RUN_TIMEOUT=60 bench_checked new suites_${dt}_b1 $S2 --suite rdna1_matrix --batch 1 --dtype $dt --layout nhwc
done
say cudnn
timeout 110 python3 bench/torch_baseline.py $S2 --suite rdna1_matrix --config fp16_nhwc --config bf16_nhwc --batch 1 --batch 32 \
  --json $OUT/cudnn.json > $OUT/cudnn.txt 2> $OUT/cudnn.err; echo "exit $?"; grep "call floor" $OUT/cudnn.err
say "machine code"
VKCONV_CACHE_DIR=none timeout 60 $C/bin/vkconv-bench --shader-stats --algo pointwise_coopmat --isa /tmp/isa_pw --json $OUT/stats_pw.json > $OUT/stats_pw.txt 2>&1
echo "exit $?"; timeout 40 python3 bench/nv_sass.py /tmp/isa_pw --nvdisasm "$ND" --jobs 8 > $OUT/sass_pw.txt 2>&1; grep pointwise $OUT/sass_pw.txt | head -12
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la)
