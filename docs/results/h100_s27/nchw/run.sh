# Session 27, call 1: the matrix kernels' NCHW output runs (shaders/include/epilogue_runs.glsl),
# one binary, old epilogue by VKCONV_NCHW_RUNS=0 (element-wise stores of a row-major scratch):
#  - fp16 NCHW at b1 on every suite and at b32 on the four batch suites, new then old;
#  - cuDNN fp16 NCHW on the same rows;
#  - the matrix-unit NCHW tests with the validation layer, in the time left.
# Every vkconv row checked against the float64 reference.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=100 bench_checked new nchw_b1_new $ALL --batch 1 --dtype fp16 --layout nchw
VKCONV_NCHW_RUNS=0 RUN_TIMEOUT=100 bench_checked new nchw_b1_old $ALL --batch 1 --dtype fp16 --layout nchw
RUN_TIMEOUT=110 bench_checked new nchw_b32_new $B32 --batch 32 --dtype fp16 --layout nchw
VKCONV_NCHW_RUNS=0 RUN_TIMEOUT=110 bench_checked new nchw_b32_old $B32 --batch 32 --dtype fp16 --layout nchw
(cd "$OUT" && tar czf part1.tgz *.json *.txt 2>/dev/null)
say cudnn
timeout 100 python3 bench/torch_baseline.py $ALL --config fp16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn_nchw.err"
LEFT=$(( 560 - ($(date +%s) - T0) ))
[ $LEFT -gt 20 ] && tests_validated tests.log $LEFT '*CoopmatShapes*nchw*:*CoopmatShapes*layout*:*CoopmatTiles*nchw*:*CoopmatTiles*layout_n*:*HaloCoopmat*:*FewChannelsCoopmat*:*CoopmatNhwc*'
(cd "$OUT" && shopt -s nullglob && rm -f part1.tgz && tar czf results.tgz *.json *.txt *.err *.log && rm -f *.json *.txt *.err *.log; ls)
