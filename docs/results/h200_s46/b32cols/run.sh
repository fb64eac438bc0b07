# Session 46, call 7 (the final build): the README's batch-32 columns that earlier sessions left
# standing (fp16 NHWC and bf16 NHWC from session 43, fp16 NCHW from session 42), on the four
# batch-32 suites, every row checked, with cuDNN 9.19 fp16 NHWC, bf16 NHWC and fp16 NCHW at b32 in
# the same call.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
RUN_TIMEOUT=110 bench_checked new fp16_nhwc_b32 $B32 --batch 32 --dtype fp16 --layout nhwc
RUN_TIMEOUT=110 bench_checked new fp16_nchw_b32 $B32 --batch 32 --dtype fp16 --layout nchw
say cudnn fp16
timeout 100 python3 bench/torch_baseline.py $B32 --config fp16_nhwc --config fp16_nchw --batch 32 --json "$OUT/cudnn_fp16_b32.json" > "$OUT/cudnn_fp16_b32.txt" 2> "$OUT/cudnn_fp16_b32.err"
echo "exit $?"
LEFT=$(( 560 - ($(date +%s) - T0) ))
if [ $LEFT -gt 170 ]; then
  RUN_TIMEOUT=110 bench_checked new bf16_nhwc_b32 $B32 --batch 32 --dtype bf16 --layout nhwc
  LEFT=$(( 575 - ($(date +%s) - T0) ))
  say cudnn bf16
  timeout $LEFT python3 bench/torch_baseline.py $B32 --config bf16_nhwc --batch 32 --json "$OUT/cudnn_bf16_b32.json" > "$OUT/cudnn_bf16_b32.txt" 2> "$OUT/cudnn_bf16_b32.err"
  echo "exit $?"
fi
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err && rm -f *.json *.txt *.err; ls -la | head)
