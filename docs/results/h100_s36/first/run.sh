# Session 36, call 4 (final build, every row checked; the tool lent an H100 for this call):
#  1. few_channels_coopmat's tests (validation layer on);
#  2. the first layers (first.csv: every C <= 8 layer of the suites) at b32 and b1, fp16 NHWC, four
#     ways: the first step's halo loads before / after the filter staging (VKCONV_FEW_COOPMAT_EARLY)
#     x 4 / 2 filter words in flight on the element path (VKCONV_FEW_COOPMAT_FLIGHT4), old last;
#  3. every suite at b1 in fp16 / bf16 NCHW, and cuDNN beside them (the README's b1 NCHW columns);
#  4. the random sweep (validation layer on) with the time left.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
D=docs/results/h100_s36/first
tests_validated tests_fc.log 60 '*FewChannelsCoopmat*'
for b in 32 1; do
  for ef in 11 10 01 00 11 00; do
    name=first_b${b}_e${ef:0:1}f${ef:1:1}; [ -f $OUT/$name.json ] && name=${name}_2
    VKCONV_FEW_COOPMAT_EARLY=${ef:0:1} VKCONV_FEW_COOPMAT_FLIGHT4=${ef:1:1} RUN_TIMEOUT=60 bench_checked new $name --shapes $D/first.csv --batch $b --dtype fp16 --layout nhwc
  done
done
RUN_TIMEOUT=110 bench_checked new fp16_nchw_b1 $ALL --batch 1 --dtype fp16 --layout nchw
RUN_TIMEOUT=110 bench_checked new bf16_nchw_b1 $ALL --batch 1 --dtype bf16 --layout nchw
say "cuDNN"
timeout 150 python3 bench/torch_baseline.py $ALL --config fp16_nchw --config bf16_nchw --batch 1 --json $OUT/cudnn_nchw.json > $OUT/cudnn_nchw.txt 2> $OUT/cudnn_nchw.err
echo "exit $?"
left=$(( 560 - ($(date +%s) - T0) ))
[ $left -gt 30 ] && { tests_validated tests_sweep.log $left 'Random/Sweep.*'; grep -cE '^\[       OK' "$OUT"/tests_sweep.log; grep -E '^\[  FAILED|Segmentation|Validation Error' "$OUT"/tests_sweep.log | head; }
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.xz *.err && rm -f *.json *.txt *.xz *.err; ls -la)
