# Session 14, call 3: direct_few_filters with up to 8 invocations per pixel (16-byte NHWC loads),
# a persistent grid (4 workgroups per SM stride over the pixel tiles, one-chunk filters staged
# once per workgroup), coalesced filter staging and an interior path without tap-mask tests.
# (a) tests with the validation layer; (b) forced tiles; (c) old build (193913d) against new, the
# router on the few-filter shapes and the SD-VAE decoder, checked; (d) cuDNN on the same.
# Packed with OLD_BUILD=<193913d build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s14/few_filters
VKCONV_SWEEP_COUNT=40 tests_validated tests.log 120 '*FewFilters*:All/Edges*__direct_few_filters:All/Edges*__auto:Random/Sweep*'
show() { grep -E "^(few_filters|sd_vae_decoder) " "$1" | awk '{a=""; for(i=1;i<=NF;i++) if($i ~ /^\[/) {a=$(i-1); break}; printf "%-16s b%s %s %s %-22s %9s\n", $2, $3, $4, $5, a, $7}'; }
for cfg in "fp16 nhwc" "fp32 nchw" "bf16 nhwc" "fp32 nhwc"; do set -- $cfg
  for t in 256x4 256x2 128x4; do
    timeout 60 $B --shapes $D/few_filters.csv --dtype $1 --layout $2 --batch 1 --algo direct_few_filters --tile $t --json "$OUT/tile_${t}_$1_$2.json" > "$OUT/tile_${t}_$1_$2.txt" 2>&1
    echo "== tile $t $1 $2: $(grep -E '^few_filters ' "$OUT/tile_${t}_$1_$2.txt" | awk '{printf "%s=%s ", $2, $7}')"
  done
done
for v in old new; do
  d=$C; [ $v = new ] || d=$C/$v
  for cfg in "fp16 nhwc 8" "fp32 nchw 8" "bf16 nhwc 1" "fp32 nhwc 1"; do set -- $cfg
    bs="--batch 1"; [ $3 = 8 ] && bs="--batch 1 --batch 8"
    LD_LIBRARY_PATH=$d/lib VKCONV_CACHE_DIR=/tmp/vkconv-cache-$v timeout 120 $d/bin/vkconv-bench --suites-dir bench/suites \
      --shapes $D/few_filters.csv $bs --dtype $1 --layout $2 --check --json "$OUT/router_${v}_$1_$2.json" > "$OUT/router_${v}_$1_$2.txt" 2>&1
    echo "== router $v $1 $2 exit $?"; show "$OUT/router_${v}_$1_$2.txt"
  done
  for cfg in "fp16 nhwc" "bf16 nhwc" "fp32 nchw"; do set -- $cfg
    LD_LIBRARY_PATH=$d/lib VKCONV_CACHE_DIR=/tmp/vkconv-cache-$v timeout 120 $d/bin/vkconv-bench --suites-dir bench/suites \
      --suite sd_vae_decoder --batch 1 --dtype $1 --layout $2 --check --json "$OUT/sdvae_${v}_$1_$2.json" > "$OUT/sdvae_${v}_$1_$2.txt" 2>&1
    echo "== sdvae $v $1 $2 exit $? $(grep -E '^sd_vae_decoder +l7 ' "$OUT/sdvae_${v}_$1_$2.txt" | awk '{print "l7=" $7}') $(sed -n '/== Summary/,$p' "$OUT/sdvae_${v}_$1_$2.txt" | grep sd_vae | awk '{print "sum=" $7}')"
  done
done
say cudnn
timeout 150 python3 bench/torch_baseline.py --shapes $D/few_filters.csv --suite sd_vae_decoder --config fp16_nhwc --config bf16_nhwc --config fp32_nchw \
  --config fp32_nhwc --batch 1 --batch 8 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"; grep -E "few_filters|TOTAL|l7 " "$OUT/cudnn.txt" | awk '{printf "%s %s b%s %s %s %s\n", $1, $2, $3, $4, $5, $7}' | head -60
(cd "$OUT" && tar czf results.tgz *.json *.txt *.err *.log; rm -f *.json *.txt *.err *.log; ls)
