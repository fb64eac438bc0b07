# Session 43, call 2: per-tile scaled bf16 winograd with the groups' maxima through subgroupMax
# (one shared atomic per subgroup; the _sg shader variants, now the default where the device has
# subgroup arithmetic) against shared atomics alone (VKCONV_WINOGRAD_SCALE_NO_SUBGROUP=1, call 1's
# build), the range pass (VKCONV_WINOGRAD_GLOBAL_SCALE=1) and fp16: VGG-16 b32 with a timestamp
# after every pass (--passes); then bf16 NHWC b1 and b32 (every row checked) with cuDNN 9.19 bf16
# NHWC beside them; the scaled-range, fp16-overflow, winograd-coopmat and packed-filter tests with
# the validation layer (call 1's build failed the first on a relaxed shared atomic).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
P="--suite vgg16 --batch 32 --layout nhwc --passes"
RUN_TIMEOUT=40 bench_checked new passes_bf16_sg $P --dtype bf16
VKCONV_WINOGRAD_SCALE_NO_SUBGROUP=1 RUN_TIMEOUT=40 bench_checked new passes_bf16_atomics $P --dtype bf16
VKCONV_WINOGRAD_GLOBAL_SCALE=1 RUN_TIMEOUT=40 bench_checked new passes_bf16_global $P --dtype bf16
RUN_TIMEOUT=40 bench_checked new passes_fp16 $P --dtype fp16
RUN_TIMEOUT=90 bench_checked new bf16_nhwc_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
say cudnn
timeout 120 python3 bench/torch_baseline.py $ALL --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn_bf16.json" > "$OUT/cudnn_bf16.txt" 2> "$OUT/cudnn_bf16.err"
echo "exit $?"
RUN_TIMEOUT=110 bench_checked new bf16_nhwc_b32 $B32 --batch 32 --dtype bf16 --layout nhwc
LEFT=$(( 560 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 100 ? LEFT : 100 ))
[ $LEFT -gt 20 ] && tests_validated tests.log $LEFT '*ScaledRange*:*Fp16Overflow*:*winograd_coopmat*:*acked*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
