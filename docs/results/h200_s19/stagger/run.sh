# Session 19, call 7: implicit_gemm_coopmat's first wave started in four phases (a quarter tile
# apart) so that later waves' epilogues do not all store at once, against the in-step start
# (VKCONV_COOPMAT_STAGGER=0), same build, same call: ../ksweep/kgemm.csv under 128x256x32/2x4s1,
# ../wgemm/wgemm.csv through the router, fp16 NHWC b32 (four suites) and b1 (six), every row
# --check'ed.  Coopmat and router tests with the validation layer first.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 150 '*coopmat*:*Routing*:*Router*'
K="--shapes docs/results/h200_s19/ksweep/kgemm.csv --batch 1 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile 128x256x32/2x4s1/s1"
W="--shapes docs/results/h200_s19/wgemm/wgemm.csv --batch 1 --dtype fp16 --layout nhwc"
VKCONV_COOPMAT_STAGGER=0 RUN_TIMEOUT=50 bench_checked new kgemm_old $K
RUN_TIMEOUT=50 bench_checked new kgemm_new $K
VKCONV_COOPMAT_STAGGER=0 RUN_TIMEOUT=50 bench_checked new wgemm_old $W
RUN_TIMEOUT=50 bench_checked new wgemm_new $W
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
VKCONV_COOPMAT_STAGGER=0 RUN_TIMEOUT=90 bench_checked new fp16_b32_old $B32 --batch 32 --dtype fp16 --layout nhwc
RUN_TIMEOUT=90 bench_checked new fp16_b32_new $B32 --batch 32 --dtype fp16 --layout nhwc
VKCONV_COOPMAT_STAGGER=0 RUN_TIMEOUT=60 bench_checked new fp16_b1_old $ALL --batch 1 --dtype fp16 --layout nhwc
RUN_TIMEOUT=60 bench_checked new fp16_b1_new $ALL --batch 1 --dtype fp16 --layout nhwc
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
