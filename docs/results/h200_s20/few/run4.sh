# Session 20, call 4: the router sending layers with at most 16 filters per group (stride 1,
# several taps, half a wave or more) to halo_coopmat's one-column tiles on NVIDIA, with the strip
# that stages the fewest halo pixels per output.  Same build, VKCONV_HALO_FEW_FILTERS=0 for the
# old routing; every row checked.  (a) tests with the validation layer; (b) the few-filter shapes
# (few_filters.csv: session 14's plus 16 and 12 filters) fp16 NHWC b1 and b8: new, old, and
# halo_coopmat forced (its own tile and strip); bf16 b1 new and old; (c) the SD-VAE decoder b1
# fp16 and bf16, new and old; (d) cuDNN on the same shapes and suite, same call.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 200 '*HaloCoopmat*:*Routing*:*Router*:*FewFilters*'
D=docs/results/h200_s20/few
FEW="--shapes $D/few_filters.csv --layout nhwc"
RUN_TIMEOUT=90 bench_checked new few_fp16_new $FEW --dtype fp16 --batch 1 --batch 8
VKCONV_HALO_FEW_FILTERS=0 RUN_TIMEOUT=90 bench_checked new few_fp16_old $FEW --dtype fp16 --batch 1 --batch 8
RUN_TIMEOUT=90 bench_checked new few_fp16_halo $FEW --dtype fp16 --batch 1 --batch 8 --algo halo_coopmat
RUN_TIMEOUT=60 bench_checked new few_bf16_new $FEW --dtype bf16 --batch 1
VKCONV_HALO_FEW_FILTERS=0 RUN_TIMEOUT=60 bench_checked new few_bf16_old $FEW --dtype bf16 --batch 1
for dt in fp16 bf16; do
  RUN_TIMEOUT=90 bench_checked new sdvae_${dt}_new --suite sd_vae_decoder --batch 1 --dtype $dt --layout nhwc
  VKCONV_HALO_FEW_FILTERS=0 RUN_TIMEOUT=90 bench_checked new sdvae_${dt}_old --suite sd_vae_decoder --batch 1 --dtype $dt --layout nhwc
done
say cudnn
timeout 150 python3 bench/torch_baseline.py --shapes $D/few_filters.csv --suite sd_vae_decoder --config fp16_nhwc --config bf16_nhwc \
  --batch 1 --batch 8 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
