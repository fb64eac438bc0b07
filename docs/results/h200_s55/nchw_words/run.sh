# Session 55, call 3: implicit_gemm_coopmat's NCHW staging of 1x1 stride-1 layers with 4-pixel
# aligned images in 16-byte words (or two 8-byte ones) instead of 8 element loads per item
# (NCHW_VEC_A), measured before any routing change: the kernel forced in layout on the 1x1
# stride-1 layers of ResNet-50, MobileNetV2 and the SD-VAE decoder (pointwise.csv) against the
# router (the transposes, slicedk or pointwise_coopmat) in the same call, fp16 NCHW b32 and b1;
# the new tests with the validation layer.  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s55/nchw_words
tests_validated tests.log 60 '*nchw_pointwise*:*CoopmatShapes*nchw*:*SlicedKCoopmatRouting*'
for b in 32 1; do
  RUN_TIMEOUT=60 bench_checked new fp16_nchw_b${b}_router --shapes $D/pointwise.csv --max-gflop 100 --batch $b --dtype fp16 --layout nchw
  RUN_TIMEOUT=60 bench_checked new fp16_nchw_b${b}_inlayout --shapes $D/pointwise.csv --max-gflop 100 --batch $b --dtype fp16 --layout nchw --algo implicit_gemm_coopmat
  RUN_TIMEOUT=60 bench_checked new fp16_nhwc_b${b}_router --shapes $D/pointwise.csv --max-gflop 100 --batch $b --dtype fp16 --layout nhwc
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz; ls -la | head)
