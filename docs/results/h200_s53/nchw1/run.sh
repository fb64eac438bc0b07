# Session 53, call 3: the README's fp16 NCHW and bf16 NCHW b1 columns with the NCHW
# pointwise_coopmat rule and cuDNN in the same call (all six suites, every row checked); the
# pointwise and routing tests with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
tests_validated tests.log 120 '*Pointwise*:*Routing*:*Declines*'
for dt in fp16 bf16; do
  RUN_TIMEOUT=120 bench_checked new ${dt}_nchw_b1 --batch 1 --dtype $dt --layout nchw
done
say cudnn
LEFT=$(( 560 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --config fp16_nchw --config bf16_nchw --batch 1 --json "$OUT/cudnn_nchw_b1.json" > "$OUT/cudnn_nchw_b1.txt" 2> "$OUT/cudnn_nchw_b1.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz; ls -la | head)
