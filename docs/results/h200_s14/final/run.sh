# Session 14, call 4 (the README's SD-VAE b1 column and the few-filter table): the router of
# 07dcc00 (direct_few_filters for K/groups <= 8, <= 4 where the matrix units take the layer).
# (a) tests with the validation layer; (b) SD-VAE decoder b1, fp16/bf16 NHWC and fp32 NCHW, new
# build, and fp16 NHWC on the old build (193913d); (c) the few-filter shapes, new router; (d) cuDNN
# on the same shapes and suite, same call.  Every vkconv row --check'ed.
# Packed with OLD_BUILD=<193913d build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s14/few_filters
VKCONV_SWEEP_COUNT=20 tests_validated tests.log 100 '*FewFilters*:All/Edges*__direct_few_filters:All/Edges*__auto:Random/Sweep*'
bench() {  # bench BUILD NAME ARGS...: checked rows, summary printed
  local v=$1 name=$2; shift 2
  local d=$C; [ $v = new ] || d=$C/$v
  LD_LIBRARY_PATH=$d/lib VKCONV_CACHE_DIR=/tmp/vkconv-cache-$v timeout 100 $d/bin/vkconv-bench --suites-dir bench/suites --check \
    --json "$OUT/$name.json" "$@" > "$OUT/$name.txt" 2>&1
  echo "== $name exit $? $(grep -E '^(few_filters|sd_vae_decoder) ' "$OUT/$name.txt" | awk '{printf "%s/b%s=%s ", $2, $3, $7}')"
}
for cfg in "fp16 nhwc" "bf16 nhwc" "fp32 nchw"; do set -- $cfg
  bench new sdvae_$1 --suite sd_vae_decoder --batch 1 --dtype $1 --layout $2
done
bench old sdvae_fp16_old --suite sd_vae_decoder --batch 1 --dtype fp16 --layout nhwc
bench new few_fp16 --shapes $D/few_filters.csv --batch 1 --batch 8 --dtype fp16 --layout nhwc
bench new few_fp32 --shapes $D/few_filters.csv --batch 1 --dtype fp32 --layout nchw
say cudnn
timeout 150 python3 bench/torch_baseline.py --shapes $D/few_filters.csv --suite sd_vae_decoder --config fp16_nhwc --config bf16_nhwc --config fp32_nchw \
  --batch 1 --batch 8 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"; grep -E "TOTAL" "$OUT/cudnn.txt" | head
(cd "$OUT" && tar czf results.tgz *.json *.txt *.err *.log; rm -f *.json *.txt *.err *.log; ls)
