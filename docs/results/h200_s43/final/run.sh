# Session 43, call 4: the final build: per-tile scaled bf16 winograd (no range pass) with its
# input transform in workgroups of 128 where a tile's channel pairs fit (C <= 256), and the model
# charging that transform half its bytes again (perf-notes 117).  bf16 NHWC b1 and b32 against
# the range pass in the same binary (VKCONV_WINOGRAD_GLOBAL_SCALE=1, which also restores its
# routing), every row checked; VGG-16 and RetinaNet b32 bf16 with --passes; cuDNN 9.19 bf16 NHWC
# beside them (the README's bf16 NHWC columns); the winograd and packed-filter tests with the
# validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
VKCONV_WINOGRAD_GLOBAL_SCALE=1 RUN_TIMEOUT=90 bench_checked new bf16_nhwc_b1_old $ALL --batch 1 --dtype bf16 --layout nhwc
RUN_TIMEOUT=90 bench_checked new bf16_nhwc_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
say cudnn
timeout 100 python3 bench/torch_baseline.py $ALL --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn_bf16.json" > "$OUT/cudnn_bf16.txt" 2> "$OUT/cudnn_bf16.err"
echo "exit $?"
VKCONV_WINOGRAD_GLOBAL_SCALE=1 RUN_TIMEOUT=100 bench_checked new bf16_nhwc_b32_old $B32 --batch 32 --dtype bf16 --layout nhwc
RUN_TIMEOUT=100 bench_checked new bf16_nhwc_b32 $B32 --batch 32 --dtype bf16 --layout nhwc --passes
LEFT=$(( 570 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 110 ? LEFT : 110 ))
[ $LEFT -gt 20 ] && tests_validated tests.log $LEFT '*inograd*:*acked*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
