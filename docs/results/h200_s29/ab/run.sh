# Session 29, call 3: the router with 256x48/4x1 (halo_coopmat, 33-48 filters per group) and
# 16-value slice tails on 32-deep tiles for C/groups % 32 == 16 on one-wave outputs
# (implicit_gemm_coopmat), against the rules before (VKCONV_HALO_TILE48=0 VKCONV_COOPMAT_TAILS=0),
# alternating new / old / new, on the 20 plans that changed (bench/cases/s29_changed.csv: the three
# b32 box layers, the two 144-channel b1 layers) in fp16 and bf16, NHWC and NCHW; then the halo and
# coopmat tile tests on the matrix units (validation layer on).  Every bench row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
S="--shapes bench/cases/s29_changed.csv --dtype fp16 --dtype bf16 --layout nhwc --layout nchw"
RUN_TIMEOUT=80 bench_checked new new1 $S
VKCONV_HALO_TILE48=0 VKCONV_COOPMAT_TAILS=0 RUN_TIMEOUT=80 bench_checked new old $S
RUN_TIMEOUT=80 bench_checked new new2 $S
tests_validated tests.log 200 '*HaloCoopmat*:coopmat*/CoopmatTiles.*:coopmat/CoopmatNhwcTiles.*:*Routing*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.log && rm -f *.json *.txt *.log; ls)
