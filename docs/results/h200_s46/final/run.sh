# Session 46, call 6: halo_coopmat's padded strips only where their extra tiles cost no more waves
# than the faster stores save (perf-notes 125), against padding regardless
# (VKCONV_HALO_PAD_WAVES=0) on the one H200 plan it moves (RDNA1 ch_128_256, fp16 NCHW b1), twice;
# then the README's fp16 NCHW b1 column with cuDNN 9.19 fp16 NCHW b1 in the same call (the build
# of this session's three routing changes); then the halo, routing, coopmat_nhwc and winograd
# tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
P="--shapes docs/results/h200_s46/halo_fp16.csv --batch 1 --layout nchw --dtype fp16"
for i in 1 2; do
  RUN_TIMEOUT=50 bench_checked new pad_new_$i $P
  VKCONV_HALO_PAD_WAVES=0 RUN_TIMEOUT=40 bench_checked new pad_old_$i $P
done
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=90 bench_checked new fp16_nchw_b1 $ALL --batch 1 --dtype fp16 --layout nchw
say cudnn
timeout 90 python3 bench/torch_baseline.py $ALL --config fp16_nchw --batch 1 --json "$OUT/cudnn_fp16_nchw_b1.json" > "$OUT/cudnn_fp16_nchw_b1.txt" 2> "$OUT/cudnn_fp16_nchw_b1.err"
echo "exit $?"
LEFT=$(( 400 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 150 ? LEFT : 150 ))
[ $LEFT -gt 15 ] && tests_validated tests.log $LEFT '*HaloCoopmat*:*Routing*:*CoopmatNhwc*:WinogradCoopmat.*:WinogradPlan.*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
