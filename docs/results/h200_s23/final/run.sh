# Session 23, call 4: 64x64x64/2x4 through the router (perf-notes 59).  Its tests with the
# validation layer; old (OLD_BUILD: main at cdedd50) against new, fp16 NHWC b1 on the six suites
# twice each and b32 on ResNet-50 and MobileNetV2; then the README's fp16 and bf16 NHWC columns
# (the device's peaks and call floor, fp16 b1 = the last new run above, fp16 b32, bf16 b1 and
# b32, every row checked) with cuDNN fp16 and bf16 NHWC in the same call.
[ -f .carry/old/bin/vkconv-bench.xz ] && xz -d .carry/old/bin/vkconv-bench.xz
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 110 'coopmat/CoopmatTiles.*64x64x64*:CoopmatRouting.*:coopmat/CoopmatShapes.*'
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for v in old new old new; do
  n=fp16_b1_$v; [ -f $OUT/$n.json ] && n=${n}2
  RUN_TIMEOUT=90 bench_checked $v $n $ALL --batch 1 --dtype fp16 --layout nhwc | head -6
done
cp $OUT/fp16_b1_new2.json $OUT/fp16_b1.json
RUN_TIMEOUT=60 bench_checked old fp16_b32_old_rm --suite resnet50 --suite mobilenet_v2 --batch 32 --dtype fp16 --layout nhwc
say peak; RUN_TIMEOUT=60 run_build new --peak > "$OUT/peak.txt" 2>&1; echo "exit $?"; grep -E "call floor" "$OUT/peak.txt"
RUN_TIMEOUT=80 bench_checked new fp16_b32 $B32 --batch 32 --dtype fp16 --layout nhwc
RUN_TIMEOUT=80 bench_checked new bf16_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
RUN_TIMEOUT=80 bench_checked new bf16_b32 $B32 --batch 32 --dtype bf16 --layout nhwc
say cudnn
timeout 150 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn.err"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
