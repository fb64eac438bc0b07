# Session 40, call 3: the session's build (the rebuilt NCHW output transform and the refitted
# NCHW-output charge) against the build before it (409684f, "old") on every suite at fp16 NCHW
# (b1 old/new twice, the b32 suites old/new once), beside cuDNN 9.19 fp16 NCHW (b1 and b32) in the
# same call (the README's fp16 NCHW columns), every row checked; then the winograd, packed-filter
# and routing tests in the time left (no validation layer: it does not fit beside two builds).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/old/*.xz .carry/old/*/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for r in 1 2; do
  for v in old new; do RUN_TIMEOUT=100 bench_checked $v fp16_nchw_b1_${v}$r $ALL --batch 1 --dtype fp16 --layout nchw; done
done
say cudnn
timeout 150 python3 bench/torch_baseline.py $ALL --config fp16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_nchw.json" > "$OUT/cudnn_nchw.txt" 2> "$OUT/cudnn_nchw.err"
echo "exit $?"
for v in new old; do RUN_TIMEOUT=170 bench_checked $v fp16_nchw_b32_$v $B32 --batch 32 --dtype fp16 --layout nchw; done
LEFT=$(( 560 - ($(date +%s) - T0) ))
if [ $LEFT -gt 30 ]; then
  say "tests (no validation layer)"
  timeout $LEFT .carry/bin/vkconv_tests --gtest_filter='*inograd*:*Packed*:*Routing*' > "$OUT/tests.log" 2>&1
  echo "vkconv_tests exit $?"; grep -E '^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ test' "$OUT/tests.log"; grep -E '^\[  FAILED' "$OUT/tests.log" | head
fi
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
