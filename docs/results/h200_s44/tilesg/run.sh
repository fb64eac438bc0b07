# Session 44, call 1: bf16 winograd's per-tile scales with a subgroup per tile (and per filter) in
# the transforms (TILE_SG: subgroupMax, no barrier) against the workgroup groups of session 43
# (VKCONV_WINOGRAD_SCALE_GROUPS=1) in one binary, every row checked: VGG-16 and RetinaNet bf16 NHWC
# b32 with --passes, bf16 NHWC b1 on every suite and b32 on the four; cuDNN 9.19 bf16 NHWC beside
# them; the scaled-range, rounding and winograd tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
W32="--suite vgg16 --suite retinanet_head --batch 32 --dtype bf16 --layout nhwc --passes"
RUN_TIMEOUT=100 bench_checked new bf16_nhwc_b32 $B32 --batch 32 --dtype bf16 --layout nhwc --passes
VKCONV_WINOGRAD_SCALE_GROUPS=1 RUN_TIMEOUT=80 bench_checked new groups_b32 $W32
RUN_TIMEOUT=90 bench_checked new bf16_nhwc_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
VKCONV_WINOGRAD_SCALE_GROUPS=1 RUN_TIMEOUT=90 bench_checked new groups_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
say cudnn
timeout 100 python3 bench/torch_baseline.py $ALL --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn_bf16.json" > "$OUT/cudnn_bf16.txt" 2> "$OUT/cudnn_bf16.err"
echo "exit $?"
LEFT=$(( 575 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 120 ? LEFT : 120 ))
[ $LEFT -gt 20 ] && tests_validated tests.log $LEFT '*ScaledRange*:*Bf16StoresRoundToNearestEven*:*inograd*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
