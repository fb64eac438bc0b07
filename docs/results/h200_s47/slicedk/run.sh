# Session 47, call 6: slicedk_coopmat for NCHW-output 1x1 layers from 96 channels up to 2^17
# outputs (behind coopmat_nhwc's transposes; perf-notes 127), against the 320-channel bound
# (VKCONV_SLICEDK_NCHW=0), fp16 and bf16 NCHW b1 on the five layers it moves and two it does not
# (ResNet-50 layer2.0.conv3, layer3.0.conv3), twice; then the README's fp16 and bf16 NCHW b1
# columns with cuDNN 9.19 in the same call (the final build); then the sliced-K, routing,
# coopmat_nhwc and Find tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
S=docs/results/h200_s47/slicedk/nchw_b1.csv
for i in 1 2; do
  RUN_TIMEOUT=60 bench_checked new sk_new_$i --shapes $S --batch 1 --layout nchw --dtype fp16 --dtype bf16
  VKCONV_SLICEDK_NCHW=0 RUN_TIMEOUT=60 bench_checked new sk_old_$i --shapes $S --batch 1 --layout nchw --dtype fp16 --dtype bf16
done
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for dt in fp16 bf16; do
  RUN_TIMEOUT=90 bench_checked new ${dt}_nchw_b1 $ALL --batch 1 --dtype $dt --layout nchw
  say cudnn $dt
  timeout 100 python3 bench/torch_baseline.py $ALL --config ${dt}_nchw --batch 1 --json "$OUT/cudnn_${dt}_nchw_b1.json" > "$OUT/cudnn_${dt}_nchw_b1.txt" 2> "$OUT/cudnn_${dt}_nchw_b1.err"
  echo "exit $?"
done
LEFT=$(( 560 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 120 ? LEFT : 120 ))
[ $LEFT -gt 15 ] && tests_validated tests.log $LEFT '*SlicedK*:*Routing*:*CoopmatNhwc*:Find.*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
