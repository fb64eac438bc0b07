# Session 39, call 3: the session's build (winograd refit, NCHW-output charge, packed filters)
# beside cuDNN 9.19 in the same call, for the README's fp16 NHWC columns:
#  1. fp16 NHWC, router, checked: every suite at b1, the four b32 suites;
#  2. cuDNN fp16 NHWC at b1 and b32;
#  3. in the time left, the packed-filter, winograd and routing tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=100 bench_checked new fp16_b1 $ALL --batch 1 --dtype fp16 --layout nhwc
RUN_TIMEOUT=180 bench_checked new fp16_b32 $B32 --batch 32 --dtype fp16 --layout nhwc
say cudnn
timeout 180 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn.err"
LEFT=$(( 560 - ($(date +%s) - T0) ))
[ $LEFT -gt 30 ] && tests_validated tests_final.log $LEFT '*Packed*:*inograd*:*Routing*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la)
