# Session 46, call 2: the two NCHW pricing changes against the rules before them, one binary, every
# row checked.  New: the inner direct kernel behind coopmat_nhwc charged the filter's KCRS -> KRSC
# transpose (VKCONV_NCHW_FILTER_TRANSPOSE_PRICE=0 leaves it out), and halo_coopmat charged its
# element-wise NCHW stores (VKCONV_HALO_NCHW_PRICE=0).  bf16 NCHW b1 on the four layers whose H200
# plans move (moved_b1.csv), rotated new / old / new / old, and VGG-16 features.2 at b32 (the fifth);
# then halo_coopmat forced behind the transposes with bf16 pixel runs (VKCONV_HALO_BF16_RUNS=1)
# against its element-wise stores, b1 and b32; then the routing, halo, coopmat_nhwc and winograd
# tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
M="--shapes docs/results/h200_s46/moved_b1.csv --batch 1 --layout nchw --dtype bf16"
RUN_TIMEOUT=60 bench_checked new b1_new_1 $M
VKCONV_NCHW_FILTER_TRANSPOSE_PRICE=0 VKCONV_HALO_NCHW_PRICE=0 RUN_TIMEOUT=40 bench_checked new b1_old_1 $M
RUN_TIMEOUT=40 bench_checked new b1_new_2 $M
VKCONV_NCHW_FILTER_TRANSPOSE_PRICE=0 VKCONV_HALO_NCHW_PRICE=0 RUN_TIMEOUT=40 bench_checked new b1_old_2 $M
RUN_TIMEOUT=60 bench_checked new b32_new --shapes docs/results/h200_s46/moved_b1.csv --batch 32 --layout nchw --dtype bf16
VKCONV_NCHW_FILTER_TRANSPOSE_PRICE=0 VKCONV_HALO_NCHW_PRICE=0 RUN_TIMEOUT=60 bench_checked new b32_old --shapes docs/results/h200_s46/moved_b1.csv --batch 32 --layout nchw --dtype bf16
H="--shapes docs/results/h200_s46/halo_bf16.csv --layout nchw --dtype bf16 --algo coopmat_nhwc --tile halo_coopmat"
RUN_TIMEOUT=40 bench_checked new halo_b1_elem $H --batch 1
VKCONV_HALO_BF16_RUNS=1 RUN_TIMEOUT=40 bench_checked new halo_b1_runs $H --batch 1
RUN_TIMEOUT=60 bench_checked new halo_b32_elem $H --batch 32
VKCONV_HALO_BF16_RUNS=1 RUN_TIMEOUT=60 bench_checked new halo_b32_runs $H --batch 32
LEFT=$(( 560 - ($(date +%s) - T0) ))
LEFT=$(( LEFT < 120 ? LEFT : 120 ))
[ $LEFT -gt 15 ] && tests_validated tests.log $LEFT '*Routing*:*HaloCoopmat*:*CoopmatNhwc*:WinogradCoopmat.*:OfflineTest.*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la | head)
