# Session 48, call 5: bf16 winograd taking the scaled path where bf16 F(2x2) on bf16 operands is
# modelled cheaper but misses its 0.80 margin against the direct kernels while the scaled path
# meets fp16's (perf-notes 130), against the rule before (VKCONV_WINOGRAD_BF16_SCALED_FALLBACK=0)
# in one binary, twice, bf16 NHWC and NCHW b1 on the layers it moves (VGG-16 features.12 and .17,
# RetinaNet cls_50) and one it does not (features.19); every row checked.  Then the router's
# 16-bit plans against the golden list and the winograd and routing tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s48/bf16scaled
for i in 1 2; do
  for l in nhwc nchw; do
    VKCONV_WINOGRAD_BF16_SCALED_FALLBACK=0 RUN_TIMEOUT=60 bench_checked new old_${l}_$i --shapes $D/moved_b1.csv --batch 1 --dtype bf16 --layout $l
    RUN_TIMEOUT=60 bench_checked new new_${l}_$i --shapes $D/moved_b1.csv --batch 1 --dtype bf16 --layout $l
  done
done
say plans
$B --suite resnet50 --suite vgg16 --suite mobilenet_v2 --suite retinanet_head --suite sd_vae_decoder --suite rdna1_matrix --batch 1 --batch 32 --dtype fp16 --dtype bf16 --layout nhwc --layout nchw --plan-only --csv "$OUT/plans16.csv" > /dev/null 2>&1
echo "exit $?"; python3 bench/plans_diff.py <(head -1 bench/profiles/nvidia_h200.plans.csv; grep -v ",fp32," bench/profiles/nvidia_h200.plans.csv | tail -n +2) "$OUT/plans16.csv" | tail -3
L=$(( 560 - ($(date +%s) - T0) )); [ $L -gt 20 ] && tests_validated tests.log $L '*Winograd*:*Routing*:*routing*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
