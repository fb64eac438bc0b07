# Session 55, call 5: the two-slices-ahead loads (AHEAD2, NVIDIA's NHWC path) for
# implicit_gemm_coopmat's NCHW word staging of 1x1 layers (call 3-4, ../nchw_words/,
# ../nchw_route/), against one slice ahead (VKCONV_COOPMAT_NCHW_AHEAD2=0) on the layers the router
# runs in layout (inlayout.csv at b32: ResNet-50's and MobileNetV2's, its SD-VAE l9 row skipped by
# --max-gflop; SD-VAE l9 at b1), twice in alternating order, fp16 and bf16; then the NCHW b32 columns of
# ResNet-50 and MobileNetV2 with this build and cuDNN in the same call; the word-path tests with
# the validation layer.  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s55/nchw_ahead2
tests_validated tests.log 60 '*nchw_pointwise*:*CoopmatNhwcRouting*:*CoopmatShapes*nchw*'
for dt in fp16 bf16; do
  for pass in 1 2; do
    for a in 1 0; do
      [ $pass = 2 ] && a=$((1 - a))
      VKCONV_COOPMAT_NCHW_AHEAD2=$a RUN_TIMEOUT=40 bench_checked new ${dt}_b32_ahead2_${a}_pass${pass} --shapes $D/inlayout.csv --max-gflop 100 --batch 32 --dtype $dt --layout nchw
      VKCONV_COOPMAT_NCHW_AHEAD2=$a RUN_TIMEOUT=40 bench_checked new ${dt}_b1_l9_ahead2_${a}_pass${pass} --shapes docs/results/h200_s55/nchw_route/sdvae_l9.csv --batch 1 --dtype $dt --layout nchw
    done
  done
  RUN_TIMEOUT=120 bench_checked new ${dt}_nchw_b32 --suite resnet50 --suite mobilenet_v2 --batch 32 --dtype $dt --layout nchw
done
say cudnn
LEFT=$(( 480 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --suite resnet50 --suite mobilenet_v2 --config fp16_nchw --config bf16_nchw --batch 32 --json "$OUT/cudnn_nchw_b32.json" > "$OUT/cudnn_nchw_b32.txt" 2> "$OUT/cudnn_nchw_b32.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz; ls -la | head)
