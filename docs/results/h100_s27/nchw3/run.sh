# Session 27, call 3: NCHW runs where the host allows them (implicit_gemm_coopmat: 8 divides P*Q;
# halo/few_channels: even output width); every other NCHW output keeps the element stores exactly.
# One binary, the old epilogue everywhere by VKCONV_NCHW_RUNS=0:
#  - fp16 NCHW at b32 on the four batch suites, new then old; at b1 on every suite, new;
#  - cuDNN fp16 and bf16 NCHW at b1 and b32 on the same rows;
#  - bf16 NCHW at b1, new, in the time left.
# Every vkconv row checked against the float64 reference.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=150 bench_checked new nchw_b32_new $B32 --batch 32 --dtype fp16 --layout nchw
VKCONV_NCHW_RUNS=0 RUN_TIMEOUT=130 bench_checked new nchw_b32_old $B32 --batch 32 --dtype fp16 --layout nchw
RUN_TIMEOUT=80 bench_checked new nchw_b1_new $ALL --batch 1 --dtype fp16 --layout nchw
say cudnn
timeout 90 python3 bench/torch_baseline.py $ALL --config fp16_nchw --config bf16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn_nchw.err"
LEFT=$(( 500 - ($(date +%s) - T0) ))
[ $LEFT -gt 30 ] && RUN_TIMEOUT=$LEFT bench_checked new bf16nchw_b1_new $ALL --batch 1 --dtype bf16 --layout nchw
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err && rm -f *.json *.txt *.err; ls)
