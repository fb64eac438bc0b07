# Session 38, call 5: the NHWC input transform in blocks of neighbouring patches read once
# through shared memory (TILED; C a multiple of 64) against the per-patch reads of call 4's
# winner (VKCONV_WINOGRAD_UNTILED=1), same build.  The winograd tests with the validation layer
# first; then fp16 NHWC, router, checked, --passes, on call 4's layers, alternating twice.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
tests_validated tests_wino.log 200 '*inograd*'
D=docs/results/h200_s38/xmode
run() { RUN_TIMEOUT=120 bench_checked new "$@"; }
for p in 1 2; do for v in tiled untiled; do
  u=0; [ $v = untiled ] && u=1
  VKCONV_WINOGRAD_UNTILED=$u run b32_${v}_$p --shapes $D/b32.csv --batch 32 --dtype fp16 --layout nhwc --passes
  VKCONV_WINOGRAD_UNTILED=$u run b1_${v}_$p --shapes $D/b1.csv --batch 1 --dtype fp16 --layout nhwc --passes
done; done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la | head)
