# Session 41, call 5: the README's bf16 NHWC columns refreshed (they dated from sessions 31-36):
# the session's final build (8d481cc, the library as in session 40) beside cuDNN 9.19 in the same
# call, bf16 NHWC every suite at b1 and the b32 suites, every row checked; cuDNN bf16 NHWC b1 and
# b32; then the coopmat and winograd tests with the validation layer as time allows.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=110 bench_checked new bf16_nhwc_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
say cudnn
timeout 170 python3 bench/torch_baseline.py $ALL --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn_bf16.json" > "$OUT/cudnn_bf16.txt" 2> "$OUT/cudnn_bf16.err"
echo "exit $?"
RUN_TIMEOUT=180 bench_checked new bf16_nhwc_b32 $B32 --batch 32 --dtype bf16 --layout nhwc
LEFT=$(( 540 - ($(date +%s) - T0) ))
[ $LEFT -gt 30 ] && tests_validated tests.log $LEFT '*inograd*:*Coopmat*bf16*:*oopmat*Routing*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
