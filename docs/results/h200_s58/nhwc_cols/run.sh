# Session 58, call 3: the README's four 16-bit NHWC columns (fp16 and bf16; b32 over the four
# suites the anchors time at 32, b1 over all six) with the final build (9f2e579), then cuDNN on
# the same rows in the same call.  Every row checked.  (Those columns were last made in sessions
# 51-52; sessions 53-58 changed the NCHW paths mostly, so this is also the NHWC regression check.)
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
pack() { (cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err 2>/dev/null); }
for dt in fp16 bf16; do
  RUN_TIMEOUT=110 bench_checked new ${dt}_nhwc_b32 $B32 --batch 32 --dtype $dt --layout nhwc; pack
  RUN_TIMEOUT=90 bench_checked new ${dt}_nhwc_b1 --batch 1 --dtype $dt --layout nhwc; pack
done
say cudnn
LEFT=$(( 560 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --config fp16_nhwc --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err && rm -f *.json *.txt *.err; ls -la | head)
