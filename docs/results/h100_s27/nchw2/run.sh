# Session 27, call 2: NCHW output runs only where 8 divides P*Q in implicit_gemm_coopmat (call 1:
# unaligned runs made ResNet-50 layer4 and MobileNetV2's 7x7 layers 10-47 % slower at b32); the
# element loop elsewhere now reads a column-major scratch.  One binary, the old epilogue by
# VKCONV_NCHW_RUNS=0:
#  - fp16 NCHW at b32 on the four batch suites, new then old; at b1 on every suite, new;
#  - bf16 NCHW at b1, new;
#  - cuDNN fp16 and bf16 NCHW on the same rows;
#  - the matrix-unit NCHW tests with the validation layer, in the time left.
# Every vkconv row checked against the float64 reference.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=150 bench_checked new nchw_b32_new $B32 --batch 32 --dtype fp16 --layout nchw
VKCONV_NCHW_RUNS=0 RUN_TIMEOUT=130 bench_checked new nchw_b32_old $B32 --batch 32 --dtype fp16 --layout nchw
RUN_TIMEOUT=80 bench_checked new nchw_b1_new $ALL --batch 1 --dtype fp16 --layout nchw
RUN_TIMEOUT=80 bench_checked new bf16nchw_b1_new $ALL --batch 1 --dtype bf16 --layout nchw
(cd "$OUT" && tar czf part1.tgz *.json *.txt 2>/dev/null)
say cudnn
timeout 90 python3 bench/torch_baseline.py $ALL --config fp16_nchw --config bf16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn_nchw.err"
LEFT=$(( 570 - ($(date +%s) - T0) ))
[ $LEFT -gt 20 ] && tests_validated tests.log $LEFT '*CoopmatShapes*nchw*:*CoopmatShapes*layout*:*CoopmatTiles*nchw_out*:*CoopmatTiles*layout_n*:*HaloCoopmat*nchw*:*FewChannelsCoopmat*nchw*:*CoopmatNhwc*'
(cd "$OUT" && shopt -s nullglob && rm -f part1.tgz && tar czf results.tgz *.json *.txt *.err *.log && rm -f *.json *.txt *.err *.log; ls)
