# Session 23, call 9: winograd F(2x2) on the matrix units charged 2.5 us per pass (the call
# floor) in the winograd-or-direct decision, the F(2x2)-or-F(4x4) choice unchanged (perf-notes
# 60; a replay of the router's cost functions with the H200's limits moved VGG-16 features.17 and
# features.19 at b1 and nothing else).  Winograd and routing tests with the validation layer;
# --peak; old (OLD_BUILD: main at 66966b9) against new, fp16 NHWC b1 on the six suites twice each
# and b32 on four once each; then the README's fp16 and bf16 NHWC columns (fp16 b1 = the last new
# run, fp16 b32 = the new b32 run) with cuDNN fp16 and bf16 NHWC in the same call.  Every row
# checked.
[ -f .carry/old/bin/vkconv-bench.xz ] && xz -d .carry/old/bin/vkconv-bench.xz
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 120 '*Winograd*:CoopmatRouting.*:HaloCoopmatRouting.*:TileScore.*'
say peak; RUN_TIMEOUT=60 run_build new --peak > "$OUT/peak.txt" 2>&1; echo "exit $?"; grep -E "cache read|copy \(|call floor \(" "$OUT/peak.txt"
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for v in old new old new; do
  n=fp16_b1_$v; [ -f $OUT/$n.json ] && n=${n}2
  RUN_TIMEOUT=90 bench_checked $v $n $ALL --batch 1 --dtype fp16 --layout nhwc | head -6
done
cp $OUT/fp16_b1_new2.json $OUT/fp16_b1.json
RUN_TIMEOUT=80 bench_checked old fp16_b32_old $B32 --batch 32 --dtype fp16 --layout nhwc
RUN_TIMEOUT=80 bench_checked new fp16_b32 $B32 --batch 32 --dtype fp16 --layout nhwc
RUN_TIMEOUT=80 bench_checked new bf16_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
RUN_TIMEOUT=80 bench_checked new bf16_b32 $B32 --batch 32 --dtype bf16 --layout nhwc
say cudnn
timeout 150 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn.err"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
