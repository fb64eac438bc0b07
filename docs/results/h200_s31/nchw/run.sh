# Session 31, call 5: the README's 16-bit NCHW columns on the H200 with session 30's staging order
# (perf-notes 82) and lean load addressing (86): vkconv fp16 NCHW b32 (four batch suites) and b1
# (every suite), cuDNN fp16 and bf16 NCHW at b1 and b32 on the same rows, then vkconv bf16 NCHW b1
# and b32 in the time left.  Every vkconv row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=150 bench_checked new nchw_b32 $B32 --batch 32 --dtype fp16 --layout nchw
RUN_TIMEOUT=80 bench_checked new nchw_b1 $ALL --batch 1 --dtype fp16 --layout nchw
say cudnn
timeout 110 python3 bench/torch_baseline.py $ALL --config fp16_nchw --config bf16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn_nchw.err"
LEFT=$(( 550 - ($(date +%s) - T0) ))
[ $LEFT -gt 30 ] && RUN_TIMEOUT=$(( LEFT < 90 ? LEFT : 90 )) bench_checked new bf16nchw_b1 $ALL --batch 1 --dtype bf16 --layout nchw
LEFT=$(( 565 - ($(date +%s) - T0) ))
[ $LEFT -gt 30 ] && RUN_TIMEOUT=$LEFT bench_checked new bf16nchw_b32 $B32 --batch 32 --dtype bf16 --layout nchw
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err && rm -f *.json *.txt *.err; ls)
