# Session 55, call 1: slicedk_coopmat's NCHW 4-pixel loads where a channel plane is not 4-pixel
# aligned (one image: two aligned 8-byte words and a shift, A_SHIFT), routed for the 7x7 1x1
# layers of ResNet-50 and MobileNetV2 at b1 that ran behind the transposes (7 per dtype): the NCHW
# slicedk and routing tests with the validation layer; fp16 and bf16 NCHW b1 on ResNet-50 and
# MobileNetV2 through the router, with the route and without it (VKCONV_SLICEDK_NCHW_IN=0: the
# transposes for every such layer); slicedk_coopmat forced on the two suites' 1x1 stride-1 layers
# (pointwise.csv: where the small-pointwise rule, the 320-channel and 1024-pixel bounds leave it
# unmeasured since its 4-pixel loads); cuDNN on the same in the same call.  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s55/sk_shift
tests_validated tests.log 60 '*SlicedKCoopmatTiles*nchw*:*SlicedKCoopmatRouting*:*SlicedKCoopmatElementPath*'
S2="--suite resnet50 --suite mobilenet_v2"
for dt in fp16 bf16; do
  RUN_TIMEOUT=30 bench_checked new ${dt}_nchw_b1 $S2 --batch 1 --dtype $dt --layout nchw
  VKCONV_SLICEDK_NCHW_IN=0 RUN_TIMEOUT=30 bench_checked new ${dt}_nchw_b1_transposes $S2 --batch 1 --dtype $dt --layout nchw
  RUN_TIMEOUT=30 bench_checked new ${dt}_nchw_b1_forced --shapes $D/pointwise.csv --batch 1 --dtype $dt --layout nchw --algo slicedk_coopmat
done
say cudnn
LEFT=$(( 200 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --config fp16_nchw --config bf16_nchw --batch 1 --suite resnet50 --suite mobilenet_v2 --json "$OUT/cudnn_nchw_b1.json" > "$OUT/cudnn_nchw_b1.txt" 2> "$OUT/cudnn_nchw_b1.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz; ls -la | head)
