# Session 38, call 9: the fp16 NCHW columns with this session's build (16-bit NCHW layers reach
# winograd's paired NHWC transforms behind coopmat_nhwc's transposes) beside cuDNN 9.19 in the
# same call: fp16 NCHW every suite at b1, cuDNN fp16 NCHW b1 and b32, then the b32 suites.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=100 bench_checked new fp16_nchw_b1 $ALL --batch 1 --dtype fp16 --layout nchw
say cudnn
timeout 150 python3 bench/torch_baseline.py $ALL --config fp16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"
(cd "$OUT" && tar czf results-nchw-b1.tgz *.json *.txt *.err)
RUN_TIMEOUT=$(( 380 - ($(date +%s) - T0) )) bench_checked new fp16_nchw_b32 $B32 --batch 32 --dtype fp16 --layout nchw
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && rm -f results-nchw-b1.tgz && tar czf results-nchw.tgz *.json *.txt *.err && rm -f *.json *.txt *.err; ls -la | head)
