# Session 33, call 3: pointwise_coopmat routed to the small 1x1 layers of 65-192 channels (and 64
# channels past one slab) with 32-filter slabs (perf-notes 93; call 2 measured them forced):
#  1. pointwise_coopmat's tests (validation on), the routing test included;
#  2. MobileNetV2 b1, fp16 and bf16 NHWC, the routing before (VKCONV_POINTWISE_SMALL=0) and after
#     (=1), twice, one binary, every row checked;
#  3. cuDNN on MobileNetV2 b1, fp16 and bf16 NHWC (the README's MobileNetV2 b1 columns).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests_pw.log 80 '*Pointwise*'
for r in a b; do for dt in fp16 bf16; do for e in 0 1; do
  VKCONV_POINTWISE_SMALL=$e RUN_TIMEOUT=40 bench_checked new ${dt}_b1_s${e}$r --suite mobilenet_v2 --batch 1 --dtype $dt --layout nhwc
done; done; done
say cudnn
timeout 80 python3 bench/torch_baseline.py --suite mobilenet_v2 --config fp16_nhwc --config bf16_nhwc --batch 1 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"; grep "call floor" "$OUT/cudnn.err"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la)
