# Session 19, call 3: winograd's batched GEMM (call 2, ../wino/: 66-70 % of its time) alone, as the
# grouped 1x1 layers it runs (F(4x4)'s 36 groups, one pixel per output tile; wgemm.csv: the b32
# winograd layers' chunks and SD-VAE l3 at b1), fp16 NHWC: the router's tile, then every
# implicit_gemm_coopmat tile forced, every row --check'ed.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s19/wgemm
F="--shapes $D/wgemm.csv --batch 1 --dtype fp16 --layout nhwc"
RUN_TIMEOUT=60 bench_checked new auto $F
for t in 128x128x32/2x4 128x64x32/2x2 64x64x32/2x2 256x128x32/4x2s1 128x256x32/2x4s1 128x128x64/2x4s1 \
         256x64x32/4x2s1 64x256x32/1x8s1 128x128x16/2x4 192x128x64/4x2s1 192x128x64/4x4s1 256x64x64/4x4s1; do
  RUN_TIMEOUT=45 bench_checked new t_$(echo $t | tr '/' '_') $F --algo implicit_gemm_coopmat --tile $t/s1
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
