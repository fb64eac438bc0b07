# Session 21, call 8: after item 53 the direct coopmat model rates the 64x64 tile higher on small
# grids, and took RDNA1 ch_64_128 from halo_coopmat (10.1 -> 11.5 us).  The eight b1 layers the
# router gives (or gave) halo_coopmat (halo_b1.csv), fp16 NHWC, checked: the router, halo_coopmat
# forced (its own tile choice), implicit_gemm_coopmat forced (its model's pick) and 64x64x32/2x2
# with 1-8 splits.  Measurement only.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s21/halo
F="--shapes $D/halo_b1.csv --batch 1 --dtype fp16 --layout nhwc --warmup-ms 100"
RUN_TIMEOUT=60 bench_checked new auto $F
RUN_TIMEOUT=60 bench_checked new halo $F --algo halo_coopmat | head -2
RUN_TIMEOUT=60 bench_checked new direct $F --algo implicit_gemm_coopmat | head -2
for s in 1 2 4 8; do RUN_TIMEOUT=60 bench_checked new 64x64x32_s$s $F --algo implicit_gemm_coopmat --tile 64x64x32/2x2/s$s | head -2; done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
