# Session 46, call 3 (the build of call 2): the README's bf16 NCHW columns with the two NCHW pricing
# changes (perf-notes 123), bf16 NCHW b1 on every suite and b32 on the four batch-32 suites, every
# row checked, cuDNN 9.19 bf16 NCHW b1 and b32 beside them; then, as time allows, the fp16 and
# bf16 NHWC b1 columns (last measured in session 43) with cuDNN's.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=90 bench_checked new bf16_nchw_b1 $ALL --batch 1 --dtype bf16 --layout nchw
RUN_TIMEOUT=110 bench_checked new bf16_nchw_b32 $B32 --batch 32 --dtype bf16 --layout nchw
say cudnn nchw
timeout 110 python3 bench/torch_baseline.py $ALL --config bf16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_bf16_nchw.json" > "$OUT/cudnn_bf16_nchw.txt" 2> "$OUT/cudnn_bf16_nchw.err"
echo "exit $?"
LEFT=$(( 560 - ($(date +%s) - T0) ))
if [ $LEFT -gt 200 ]; then
  RUN_TIMEOUT=60 bench_checked new fp16_nhwc_b1 $ALL --batch 1 --dtype fp16 --layout nhwc
  RUN_TIMEOUT=60 bench_checked new bf16_nhwc_b1 $ALL --batch 1 --dtype bf16 --layout nhwc
  LEFT=$(( 580 - ($(date +%s) - T0) ))
  say cudnn nhwc
  timeout $LEFT python3 bench/torch_baseline.py $ALL --config fp16_nhwc --config bf16_nhwc --batch 1 --json "$OUT/cudnn_nhwc_b1.json" > "$OUT/cudnn_nhwc_b1.txt" 2> "$OUT/cudnn_nhwc_b1.err"
  echo "exit $?"
fi
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err && rm -f *.json *.txt *.err; ls -la | head)
