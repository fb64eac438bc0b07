# Session 24, call 1: the device's own profile (vkconv-info --json) and its online plans for the
# offline planner's check; the offline/online plan tests with the validation layer; then, for
# the winograd-or-direct decision on small grids, every 3x3 stride-1 layer of the six suites
# with at most 1024 F(4x4) tiles at b1 (b1.csv, 31) and 1568 at b32 (b32.csv, 15), fp16 NHWC,
# each five ways: the router, winograd F(2x2) and F(4x4) forced, the direct GEMM on the router's
# tile (--algo implicit_gemm_coopmat) and halo_coopmat.  Every row checked.  HEAD 73f4b10.
source scripts/device_run.sh none > /dev/null 2>&1
say info; $C/bin/vkconv-info --json > "$OUT/h200_info.json"; echo "exit $?"
for dt in "fp16 --dtype bf16 --layout nhwc" "fp32 --layout nchw"; do
  n=${dt%% *}; run_build new --plan-only --suite resnet50 --suite vgg16 --suite mobilenet_v2 --suite retinanet_head \
    --suite sd_vae_decoder --suite rdna1_matrix --batch 1 --batch 32 --dtype $dt --csv "$OUT/online_$n.csv" > /dev/null 2>&1
  echo "plan-only $n exit $?"
done
tests_validated tests.log 120 'OfflineTest.*:ContextTest.CapsJson'
S=docs/results/h200_s24/sweep
for b in 1 32; do
  for v in "auto" "winograd --tile 2x2" "winograd --tile 4x4" "implicit_gemm_coopmat" "halo_coopmat"; do
    n=b${b}_$(echo $v | tr -d ' -' | sed 's/winogradtile/w/'); 
    RUN_TIMEOUT=150 bench_checked new $n --shapes $S/b$b.csv --batch $b --dtype fp16 --layout nhwc --algo $v | head -3
  done
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.log *.csv && rm -f *.json *.txt *.log *.csv; ls)
