# Session 14, call 2: direct_few_filters with CL invocations per pixel for 16-byte NHWC loads
# (call 1, ../few_filters/, had one pixel per invocation: NHWC fp16 ran the SD-VAE's l7 at 204 us,
# its loads one cache line per invocation).  (a) its tests, the edge cases and the sweep through
# every algorithm with the validation layer; (b) forced tiles; (c) the few-filter shapes and the
# SD-VAE decoder, old build (193913d) against new, router, alternating, every row checked;
# (d) cuDNN on the same shapes and suite.
# Packed with OLD_BUILD=<193913d build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s14/few_filters
VKCONV_SWEEP_COUNT=60 tests_validated tests.log 150 '*FewFilters*:All/Edges*__direct_few_filters:All/Edges*__auto:Random/Sweep*'
CFG="--dtype fp16 --layout nhwc --dtype bf16 --layout nhwc --dtype fp32 --layout nchw --dtype fp32 --layout nhwc"
for t in 256x4 256x2 256x1 128x4 128x2; do
  say "tile $t"
  $B --shapes $D/few_filters.csv $CFG --batch 1 --algo direct_few_filters --tile $t --json "$OUT/tile_$t.json" > "$OUT/tile_$t.txt" 2>&1
  grep -E "^few_filters " "$OUT/tile_$t.txt" | awk '{printf "%-18s %s %s %9s\n", $2, $4, $5, $7}'
done
for v in old new old new; do
  say "router $v"
  run_build $v --shapes $D/few_filters.csv $CFG --batch 1 --batch 8 --check --json "$OUT/router_$v.json" > "$OUT/router_$v.txt" 2>&1
  echo "exit $?"; grep -E "^few_filters " "$OUT/router_$v.txt" | awk '{a=""; for(i=1;i<=NF;i++) if($i ~ /^\[/) {a=$(i-1); break}; printf "%-18s b%s %s %s %-22s %9s\n", $2, $3, $4, $5, a, $7}'
  run_build $v --suite sd_vae_decoder $CFG --batch 1 --check --json "$OUT/sdvae_$v.json" > "$OUT/sdvae_$v.txt" 2>&1
  echo "exit $?"; sed -n '/== Summary/,$p' "$OUT/sdvae_$v.txt" | grep sd_vae
done
say cudnn
python3 bench/torch_baseline.py --shapes $D/few_filters.csv --suite sd_vae_decoder --config fp16_nhwc --config bf16_nhwc --config fp32_nchw \
  --config fp32_nhwc --batch 1 --batch 8 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"; grep -E "few_filters|TOTAL" "$OUT/cudnn.txt" | head -60
(cd "$OUT" && tar czf results.tgz *.json *.txt *.err *.log; rm -f *.json *.txt *.err *.log; ls)
