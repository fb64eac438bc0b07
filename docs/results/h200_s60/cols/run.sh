# Session 60, call 1: session 59's changes (grid-aware scalar tile choice, winograd's range
# decline, the offline bf16 fix, the plan fuzzer) had run on lavapipe and the RADV null device
# only.  Here: the coopmat, winograd, split-K, offline and fuzz tests with the validation layer
# on the NVIDIA driver, then the README's four 16-bit NHWC columns (fp16 and bf16; b32 over the
# four suites the anchors time at 32, b1 over all six) with this build (bd3dffe; its JSON records the revision), then cuDNN on
# the same rows in the same call.  Every row checked.
T0=$(date +%s)
source scripts/device_run.sh info > /dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
pack() { (cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log 2>/dev/null); }
tests_validated tests.log 150 'IgemmWideGrid.*:PlanFuzz.*:OfflineTest.*:Validation.*:WinogradPlan.*:winograd_coopmat/*:coopmat/CoopmatShapes.*:coopmat/SlicedKCoopmatTiles.*:coopmat/PointwiseCoopmatTiles.*:splitk/*:Random/Sweep.*'
pack
for dt in fp16 bf16; do
  RUN_TIMEOUT=110 bench_checked new ${dt}_nhwc_b32 $B32 --batch 32 --dtype $dt --layout nhwc; pack
  RUN_TIMEOUT=90 bench_checked new ${dt}_nhwc_b1 --batch 1 --dtype $dt --layout nhwc; pack
done
say cudnn
LEFT=$(( 580 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --config fp16_nhwc --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && xz -9 -f tests.log; shopt -s nullglob; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz *.log; ls -la | head)
