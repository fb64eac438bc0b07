# Session 40, call 5: the session's final build (the NCHW output transform with its misaligned-run
# pairs, the refitted NCHW-output charge) beside cuDNN 9.19 in the same call: fp16 NCHW every suite
# at b1 and the b32 suites, cuDNN fp16 NCHW b1 and b32 (the README's fp16 NCHW columns), every row
# checked; then the winograd, packed-filter, routing and NHWC-path tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=100 bench_checked new fp16_nchw_b1 $ALL --batch 1 --dtype fp16 --layout nchw
say cudnn
timeout 150 python3 bench/torch_baseline.py $ALL --config fp16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"
RUN_TIMEOUT=170 bench_checked new fp16_nchw_b32 $B32 --batch 32 --dtype fp16 --layout nchw
LEFT=$(( 540 - ($(date +%s) - T0) ))
[ $LEFT -gt 30 ] && tests_validated tests.log $LEFT '*inograd*:*Packed*:*Routing*:*Nhwc*:*nhwc*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
