# Session 38, call 4: which part of call 3's input transform won on SD-VAE and lost on VGG-16:
# VKCONV_WINOGRAD_INPUT_MODE (a measurement-only spec constant in this build) 0 the whole patch
# loaded, checked (the shipped code); 1 the whole patch, interior patches read unchecked from one
# offset; 2 B^T d row by row for interior patches, the whole patch checked for the border; 3 row
# by row for both (call 3's new build).  All four with the filter transform in pairs.  fp16 NHWC,
# router, checked, --passes, modes 0 1 2 3 then 3 2 1 0.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s38/xmode
run() { RUN_TIMEOUT=120 bench_checked new "$@"; }
for m in 0 1 2 3 3 2 1 0; do
  p=1; [ -f $OUT/b32_m${m}_1.json ] && p=2
  VKCONV_WINOGRAD_INPUT_MODE=$m run b32_m${m}_$p --shapes $D/b32.csv --batch 32 --dtype fp16 --layout nhwc --passes
  VKCONV_WINOGRAD_INPUT_MODE=$m run b1_m${m}_$p --shapes $D/b1.csv --batch 1 --dtype fp16 --layout nhwc --passes
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
