# Session 42, call 2: the router that keeps bf16 F(2x2) on bf16 operands where the model prices it
# below the scaled path (perf-notes 115), bf16 NHWC b1 and b32, every row checked; fp16 NHWC b1 and
# b32 (fp16 plans unchanged by this session: a check that the scaled path's binding and spec
# constants cost fp16 nothing); cuDNN 9.19 fp16 and bf16 NHWC b1 and b32 beside them; the winograd
# and packed-filter tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=90 bench_checked new bf16_nhwc_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
RUN_TIMEOUT=90 bench_checked new fp16_nhwc_b1 $ALL --batch 1 --dtype fp16 --layout nhwc
say cudnn
timeout 150 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
RUN_TIMEOUT=120 bench_checked new bf16_nhwc_b32 $B32 --batch 32 --dtype bf16 --layout nhwc
RUN_TIMEOUT=120 bench_checked new fp16_nhwc_b32 $B32 --batch 32 --dtype fp16 --layout nhwc
LEFT=$(( 570 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 120 ? LEFT : 120 ))
[ $LEFT -gt 20 ] && tests_validated tests.log $LEFT '*inograd*:*acked*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
