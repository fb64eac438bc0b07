# Session 19, call 9: the coopmat epilogues' subgroup barrier around the shared-memory scratch as
# an execution + shared-memory barrier (controlBarrier, subgroup scope) instead of GLSL's
# subgroupBarrier(), which also orders buffer memory (call 8, ../nostore/: the epilogue's global
# stores are 1.0-1.7 us of a tile's per-tile cost).  implicit_gemm_coopmat against the full barrier
# (VKCONV_COOPMAT_FULL_SCRATCH_BARRIER=1) in the same build and call: ../ksweep/kgemm.csv under
# 128x256x32/2x4s1, fp16 NHWC b32 (four suites) and b1 (six), every row --check'ed.  Coopmat and
# router tests with the validation layer first.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 150 '*coopmat*:*Routing*:*Router*'
K="--shapes docs/results/h200_s19/ksweep/kgemm.csv --batch 1 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile 128x256x32/2x4s1/s1"
VKCONV_COOPMAT_FULL_SCRATCH_BARRIER=1 RUN_TIMEOUT=50 bench_checked new kgemm_old $K
RUN_TIMEOUT=50 bench_checked new kgemm_new $K
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
VKCONV_COOPMAT_FULL_SCRATCH_BARRIER=1 RUN_TIMEOUT=80 bench_checked new fp16_b32_old $B32 --batch 32 --dtype fp16 --layout nhwc
RUN_TIMEOUT=80 bench_checked new fp16_b32_new $B32 --batch 32 --dtype fp16 --layout nhwc
VKCONV_COOPMAT_FULL_SCRATCH_BARRIER=1 RUN_TIMEOUT=50 bench_checked new fp16_b1_old $ALL --batch 1 --dtype fp16 --layout nhwc
RUN_TIMEOUT=50 bench_checked new fp16_b1_new $ALL --batch 1 --dtype fp16 --layout nhwc
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
