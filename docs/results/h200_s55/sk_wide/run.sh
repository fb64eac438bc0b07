# Session 55, call 2: the shifted 4-pixel NCHW loads of slicedk_coopmat with the shift moved from
# the load to the shared-memory store (call 1's shift at load time waited on the loads every
# stage; the 16-bit pairs likewise), and slicedk_coopmat routed for more 16-bit NCHW 1x1 layers
# at b1 from call 1's forced rows: up to 1024 pixels and 2^18 outputs from 32 channels (ahead of
# pointwise_coopmat and the scalar GEMM), and over up to 4096 pixels where coopmat_nhwc's
# transposes would run the general kernel.  The NCHW slicedk and routing tests with the
# validation layer; fp16 and bf16 NCHW b1 on ResNet-50 and MobileNetV2 through the router, without
# the new rules (VKCONV_SLICEDK_NCHW_WIDE=0) and without the NCHW route (VKCONV_SLICEDK_NCHW_IN=0:
# the transposes), alternated; slicedk_coopmat forced on ResNet-50's layers (through the taps:
# the 16-bit pairs now paired at the store); cuDNN on the same in the same call.  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
tests_validated tests.log 60 '*SlicedKCoopmatTiles*nchw*:*SlicedKCoopmatRouting*:*SlicedKCoopmatElementPath*'
S2="--suite resnet50 --suite mobilenet_v2"
for dt in fp16 bf16; do
  RUN_TIMEOUT=30 bench_checked new ${dt}_nchw_b1 $S2 --batch 1 --dtype $dt --layout nchw
  VKCONV_SLICEDK_NCHW_WIDE=0 RUN_TIMEOUT=30 bench_checked new ${dt}_nchw_b1_narrow $S2 --batch 1 --dtype $dt --layout nchw
  VKCONV_SLICEDK_NCHW_IN=0 RUN_TIMEOUT=30 bench_checked new ${dt}_nchw_b1_transposes $S2 --batch 1 --dtype $dt --layout nchw
done
RUN_TIMEOUT=40 bench_checked new fp16_nchw_b1_forced --suite resnet50 --batch 1 --dtype fp16 --layout nchw --algo slicedk_coopmat
say cudnn
LEFT=$(( 230 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --config fp16_nchw --config bf16_nchw --batch 1 --suite resnet50 --suite mobilenet_v2 --json "$OUT/cudnn_nchw_b1.json" > "$OUT/cudnn_nchw_b1.txt" 2> "$OUT/cudnn_nchw_b1.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz; ls -la | head)
