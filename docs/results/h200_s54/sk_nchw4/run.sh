# Session 54, call 2: slicedk_coopmat's NCHW staging with 4-pixel (8-byte) loads where H*W % 4 == 0,
# routed for those layers only (9 per dtype: MobileNetV2's 14x14 and ResNet-50's 14x14 / 28x28
# 1x1 layers at b1): the NCHW slicedk and routing tests with the validation layer; fp16 and bf16
# NCHW b1 on ResNet-50 and MobileNetV2 through the router, with the route and without it
# (VKCONV_SLICEDK_NCHW_IN=0: the transposes), alternated; cuDNN on the same in the same call.
# Every row checked.  Held to ~170 s (the session's device time).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
tests_validated tests.log 40 '*SlicedKCoopmatTiles*nchw*:*SlicedKCoopmatRouting*:*SlicedKCoopmatElementPath*'
S2="--suite resnet50 --suite mobilenet_v2"
for dt in fp16 bf16; do
  RUN_TIMEOUT=30 bench_checked new ${dt}_nchw_b1 $S2 --batch 1 --dtype $dt --layout nchw
  VKCONV_SLICEDK_NCHW_IN=0 RUN_TIMEOUT=30 bench_checked new ${dt}_nchw_b1_transposes $S2 --batch 1 --dtype $dt --layout nchw
done
say cudnn
LEFT=$(( 175 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --config fp16_nchw --config bf16_nchw --batch 1 --suite resnet50 --suite mobilenet_v2 --json "$OUT/cudnn_nchw_b1.json" > "$OUT/cudnn_nchw_b1.txt" 2> "$OUT/cudnn_nchw_b1.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz; ls -la | head)
