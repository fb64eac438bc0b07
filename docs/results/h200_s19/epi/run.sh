# Session 19, call 4: implicit_gemm_coopmat's and halo_coopmat's epilogues in rounds of a
# subgroup's FN accumulators (one row block: one shared-memory round trip instead of FN, a row's
# filters in one contiguous run) against one accumulator per round (VKCONV_COOPMAT_EPI_BATCH=0
# VKCONV_HALO_EPI_BATCH=0), same build, same call:
# fp16 NHWC b1 on all six suites and b32 on the four b32 suites, every row --check'ed; bf16 b1/b32
# and cuDNN fp16 and bf16 NHWC in the same call.  Tests with the validation layer first.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 150 '*coopmat*:*Routing*:*Router*'
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for b in 1 32; do
  S=$ALL; [ $b = 32 ] && S=$B32
  VKCONV_COOPMAT_EPI_BATCH=0 VKCONV_HALO_EPI_BATCH=0 RUN_TIMEOUT=100 bench_checked new fp16_b${b}_old $S --batch $b --dtype fp16 --layout nhwc
  RUN_TIMEOUT=100 bench_checked new fp16_b${b}_new $S --batch $b --dtype fp16 --layout nhwc
done
RUN_TIMEOUT=90 bench_checked new bf16_b1_new $ALL --batch 1 --dtype bf16 --layout nhwc
RUN_TIMEOUT=90 bench_checked new bf16_b32_new $B32 --batch 32 --dtype bf16 --layout nhwc
say cudnn
timeout 150 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
