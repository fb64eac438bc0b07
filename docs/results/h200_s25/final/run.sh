# Session 25, call 1 (the small-grid winograd rule of 82fecdc):
#  - routing, winograd and offline-plan tests with the validation layer;
#  - the device's own plans (--plan-only) for every row, to check the offline profile's plans;
#  - the winograd rule A/B: OLD_BUILD 73e9ba8 (the library before it) against this build, fp16
#    NHWC b1 on the three suites whose plans move, old/new/old/new, and b32 on the two, old/new;
#  - the README's fp16 and bf16 NHWC columns (this build, all suites) with cuDNN in the same call.
#  Every vkconv row checked against the float64 reference.
# The carried benches are xz-compressed (the 64 MiB transfer limit; .carry/old has no libvkconv:
# vkconv-bench links the library statically).
for f in .carry/bin/vkconv-bench.xz .carry/old/bin/vkconv-bench.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 120 'WinogradPlan.*:CoopmatRouting.*:HaloCoopmatRouting.*:OfflineTest.*:ContextTest.CapsJson:TileScore.*:*inograd*'
say info; $C/bin/vkconv-info --json > "$OUT/h200_info.json"; echo "exit $?"
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for dt in "fp16 --dtype bf16 --layout nhwc" "fp32 --layout nchw"; do
  n=${dt%% *}; run_build new --plan-only $ALL --batch 1 --batch 32 --dtype $dt --csv "$OUT/online_$n.csv" > /dev/null 2>&1
  echo "plan-only $n exit $?"
done
MOVED="--suite rdna1_matrix --suite retinanet_head --suite vgg16"
for v in old new old new; do
  n=ab_b1_$v; [ -f $OUT/$n.json ] && n=${n}2
  RUN_TIMEOUT=60 bench_checked $v $n $MOVED --batch 1 --dtype fp16 --layout nhwc | head -4
done
for v in old new; do
  RUN_TIMEOUT=60 bench_checked $v ab_b32_$v --suite resnet50 --suite retinanet_head --batch 32 --dtype fp16 --layout nhwc | head -3
done
RUN_TIMEOUT=80 bench_checked new fp16_b1 $ALL --batch 1 --dtype fp16 --layout nhwc
RUN_TIMEOUT=80 bench_checked new fp16_b32 $B32 --batch 32 --dtype fp16 --layout nhwc
RUN_TIMEOUT=80 bench_checked new bf16_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
RUN_TIMEOUT=80 bench_checked new bf16_b32 $B32 --batch 32 --dtype bf16 --layout nhwc
(cd "$OUT" && tar czf part1.tgz *.json *.txt *.log *.csv 2>/dev/null)
say cudnn
timeout 130 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn.err"
(cd "$OUT" && shopt -s nullglob && rm -f part1.tgz && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
