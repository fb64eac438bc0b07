# Session 55, call 4: the NCHW routes from call 3 (../nchw_words/): 1x1 layers whose NCHW staging
# loads 16-byte words (NCHW_VEC_A) stay in layout on implicit_gemm_coopmat up to 128 filters per
# group instead of coopmat_nhwc's transposes, and pointwise_coopmat leaves NCHW layers of 64+
# channels over more than 4096 pixels to it.  fp16 and bf16 NCHW b32 on ResNet-50 and MobileNetV2
# and NCHW b1 on the SD-VAE decoder through the router; the layers that moved without the rules
# (VKCONV_NCHW_WORDS_IN_LAYOUT=0: moved_b32.csv, sdvae_l9.csv); cuDNN on the same in the same call;
# the new tests with the validation layer.  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s55/nchw_route
tests_validated tests.log 60 '*nchw_pointwise*:*CoopmatNhwcRouting*:*PointwiseCoopmatRouting*:*SlicedKCoopmatRouting*:*CoopmatShapes*nchw*'
S2="--suite resnet50 --suite mobilenet_v2"
for dt in fp16 bf16; do
  RUN_TIMEOUT=120 bench_checked new ${dt}_nchw_b32 $S2 --batch 32 --dtype $dt --layout nchw
  VKCONV_NCHW_WORDS_IN_LAYOUT=0 RUN_TIMEOUT=60 bench_checked new ${dt}_nchw_b32_moved_before --shapes $D/moved_b32.csv --batch 32 --dtype $dt --layout nchw
  RUN_TIMEOUT=60 bench_checked new ${dt}_nchw_b1_sdvae --suite sd_vae_decoder --batch 1 --dtype $dt --layout nchw
  VKCONV_NCHW_WORDS_IN_LAYOUT=0 RUN_TIMEOUT=60 bench_checked new ${dt}_nchw_b1_sdvae_l9_before --shapes $D/sdvae_l9.csv --batch 1 --dtype $dt --layout nchw
done
say cudnn
LEFT=$(( 470 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py $S2 --config fp16_nchw --config bf16_nchw --batch 32 --json "$OUT/cudnn_nchw_b32.json" > "$OUT/cudnn_nchw_b32.txt" 2> "$OUT/cudnn_nchw_b32.err"
echo "exit $?"
LEFT=$(( 530 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/torch_baseline.py --suite sd_vae_decoder --config fp16_nchw --config bf16_nchw --batch 1 --json "$OUT/cudnn_nchw_b1_sdvae.json" > "$OUT/cudnn_nchw_b1_sdvae.txt" 2> "$OUT/cudnn_nchw_b1_sdvae.err"
echo "exit $?"
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz 2>/dev/null; rm -f *.json *.txt *.err *.xz; ls -la | head)
