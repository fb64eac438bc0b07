# Session 54, call 1: slicedk_coopmat reading NCHW activations itself (no coopmat_nhwc transposes
# on the 16 b1 1x1 layers per dtype it now takes): the slicedk, routing and decline tests with
# the validation layer; fp16 and bf16 NCHW b1 on all six suites through the router, with the new
# route and without it (VKCONV_SLICEDK_NCHW_IN=0, the transposes), alternated; slicedk_coopmat
# forced on the four model suites' fp16 NCHW b1 layers (every layer of C % 8 == 0, through the
# taps too, KCRS filters: for a rule beyond the 1x1 layers); cuDNN fp16/bf16 NCHW b1 in the same
# call.  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
tests_validated tests.log 120 '*SlicedK*:*Routing*:*Declines*'
for dt in fp16 bf16; do
  RUN_TIMEOUT=100 bench_checked new ${dt}_nchw_b1 --batch 1 --dtype $dt --layout nchw
  VKCONV_SLICEDK_NCHW_IN=0 RUN_TIMEOUT=100 bench_checked new ${dt}_nchw_b1_transposes --batch 1 --dtype $dt --layout nchw
done
RUN_TIMEOUT=90 bench_checked new fp16_nchw_b1_forced $B32 --batch 1 --dtype fp16 --layout nchw --algo slicedk_coopmat
say cudnn
LEFT=$(( 540 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --config fp16_nchw --config bf16_nchw --batch 1 --json "$OUT/cudnn_nchw_b1.json" > "$OUT/cudnn_nchw_b1.txt" 2> "$OUT/cudnn_nchw_b1.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz; ls -la | head)
