# Session 26, call 7 (HEAD after 39e49ec): the matrix-unit test families with the validation layer
# (implicit_gemm_coopmat with its slice tails, few_channels_coopmat, coopmat_nhwc, winograd's
# coopmat GEMM, routing and declines), then the device's own plans for every recorded row against
# the H200 profile's golden file (bench/profiles/nvidia_h200.plans.csv).
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
say plans
S="--suite resnet50 --suite vgg16 --suite mobilenet_v2 --suite retinanet_head --suite sd_vae_decoder --suite rdna1_matrix"
$B $S --batch 1 --batch 32 --dtype fp16 --dtype bf16 --layout nhwc --layout nchw --plan-only --csv "$OUT/p16.csv" > /dev/null 2>&1
$B $S --batch 1 --batch 32 --dtype fp32 --layout nchw --plan-only --csv "$OUT/p32.csv" > /dev/null 2>&1
{ cat "$OUT/p16.csv"; tail -n +2 "$OUT/p32.csv"; } > "$OUT/device_plans.csv"
python3 bench/plans_diff.py bench/profiles/nvidia_h200.plans.csv "$OUT/device_plans.csv" > "$OUT/plans.txt" 2>&1
echo "exit $?"; tail -3 "$OUT/plans.txt"
tests_validated tests.log 200 '*Coopmat*:*FewChannels*:winograd_coopmat*:*Routing*:*Declines*'
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.txt *.log *.csv && rm -f *.txt *.log *.csv; ls)
