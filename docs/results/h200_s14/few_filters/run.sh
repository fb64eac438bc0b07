# Session 14, call 1: direct_few_filters (K/groups <= 8).  (a) its tests, the edge cases and the
# sweep through every algorithm with the validation layer; (b) every algorithm that accepts each
# few-filter shape (--algo all, so the old router's pick, implicit_gemm_coopmat / winograd /
# implicit_gemm, runs beside the new kernel in the same process), fp16 NHWC and fp32 NCHW, b1 and
# b8; (c) forced tiles; (d) the SD-VAE decoder with the new router, fp16/bf16 NHWC and fp32 NCHW
# b1; (e) cuDNN on the same shapes (b1, b8) and the suite (b1).
# Packed with scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s14/few_filters
VKCONV_SWEEP_COUNT=60 tests_validated tests.log 150 '*FewFilters*:All/Edges*__direct_few_filters:All/Edges*__auto:Random/Sweep*'
for cfg in "fp16 nhwc" "fp32 nchw"; do set -- $cfg; for b in 1 8; do
  say "all algorithms $1 $2 b$b"
  $B --shapes $D/few_filters.csv --dtype $1 --layout $2 --batch $b --algo all --check --json "$OUT/all_$1_b$b.json" > "$OUT/all_$1_b$b.txt" 2>&1
  echo "exit $?"; grep -E "^few_filters " "$OUT/all_$1_b$b.txt" | awk '{a=""; for(i=1;i<=NF;i++) if($i ~ /^\[/) {a=$(i-1); break}; printf "%-18s %-24s %9s\n", $2, a, $7}' | head -60
done; done
for t in 256x4 256x2 256x1 128x4 64x4; do
  say "tile $t"
  $B --shapes $D/few_filters.csv --dtype fp16 --layout nhwc --dtype fp32 --layout nchw --batch 1 --algo direct_few_filters --tile $t --json "$OUT/tile_$t.json" > "$OUT/tile_$t.txt" 2>&1
  grep -E "^few_filters " "$OUT/tile_$t.txt" | awk '{printf "%-18s %s %s %9s\n", $2, $4, $5, $7}'
done
for cfg in "fp16 nhwc" "bf16 nhwc" "fp32 nchw"; do set -- $cfg
  say "sd_vae $1 $2 b1"
  $B --suite sd_vae_decoder --dtype $1 --layout $2 --batch 1 --check --json "$OUT/sdvae_$1.json" > "$OUT/sdvae_$1.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/sdvae_$1.txt" | head -4
done
say cudnn
python3 bench/torch_baseline.py --shapes $D/few_filters.csv --suite sd_vae_decoder --config fp16_nhwc --config bf16_nhwc --config fp32_nchw \
  --batch 1 --batch 8 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"; grep -E "few_filters|l7" "$OUT/cudnn.txt" | head -40
(cd "$OUT" && tar czf results.tgz *.json *.txt *.err *.log; rm -f *.json *.txt *.err *.log; ls)
