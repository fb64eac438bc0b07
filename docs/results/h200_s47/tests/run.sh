# Session 47, call 8: the final build's routing and matrix-kernel tests with the validation layer
# on the H200 (CoopmatShapes' routing expectation for the small 1x1 NCHW rule failed on Mesa 26's
# lavapipe in CI, and calls 4 and 6 had not run that group), then the plans the router makes here
# against the golden list.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
tests_validated tests.log 200 'coopmat/CoopmatShapes.*:*Routing*:*Declines*:Find.*:*SlicedK*:*PointwiseCoopmat*:WinogradPlan.*'
say plans
$B --suite resnet50 --suite vgg16 --suite mobilenet_v2 --suite retinanet_head --suite sd_vae_decoder --suite rdna1_matrix --batch 1 --batch 32 --dtype fp16 --dtype bf16 --layout nhwc --layout nchw --plan-only --csv "$OUT/plans16.csv" > /dev/null 2>&1
echo "exit $?"; python3 bench/plans_diff.py <(head -1 bench/profiles/nvidia_h200.plans.csv; grep -v ",fp32," bench/profiles/nvidia_h200.plans.csv | tail -n +2) "$OUT/plans16.csv" | tail -3
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.csv *.xz && rm -f *.csv *.xz; ls -la | head)
