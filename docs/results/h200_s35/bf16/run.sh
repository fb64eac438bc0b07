# Session 35, call 4: the final routing (sliced-K for NCHW outputs only with several filter taps)
# and the README's b1 columns, every row checked; cuDNN 9.19 in the same call:
#  1. bf16 NHWC b1 and bf16 NCHW b1, every suite: new, then VKCONV_COOPMAT_SLICED=0;
#  2. fp16 NHWC b1, every suite (new);
#  3. cuDNN fp16 NHWC and bf16 NHWC at b1 (the README's b1 NHWC columns).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for lay in nhwc nchw; do
  RUN_TIMEOUT=100 bench_checked new bf16_${lay}_b1 $ALL --batch 1 --dtype bf16 --layout $lay
  VKCONV_COOPMAT_SLICED=0 RUN_TIMEOUT=70 bench_checked new bf16_${lay}_b1_off $ALL --batch 1 --dtype bf16 --layout $lay
done
RUN_TIMEOUT=70 bench_checked new fp16_nhwc_b1 $ALL --batch 1 --dtype fp16 --layout nhwc
say "cuDNN"
timeout 120 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --config bf16_nhwc --batch 1 --json $OUT/cudnn.json > $OUT/cudnn.txt 2> $OUT/cudnn.err
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la)
