# Session 20, call 6: winograd's margin on the matrix units.  The router takes winograd (fp16)
# where its model is under 0.9x the direct kernels' (+ one pass); two layers were known to run
# faster on winograd than on what the router picks (SD-VAE l5 b1, ResNet-50 layer4.1.conv2 b32).
# Same build (margin.patch), VKCONV_WINOGRAD_MARGIN=0.9 (the library's) / 1.0 / 1.15, fp16 NHWC b1
# on the six suites and b32 on four; VKCONV_ROUTER_TRACE=1 prints each model ratio into the
# 0.9 runs' text.  Every row checked.  Winograd and router tests with the validation layer first.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 150 '*inograd*oopmat*:*Routing*:*Router*'
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for m in 0.9 1.0 1.15; do
  VKCONV_ROUTER_TRACE=1 VKCONV_WINOGRAD_MARGIN=$m RUN_TIMEOUT=100 bench_checked new fp16_b1_m$m $ALL --batch 1 --dtype fp16 --layout nhwc
  VKCONV_ROUTER_TRACE=1 VKCONV_WINOGRAD_MARGIN=$m RUN_TIMEOUT=100 bench_checked new fp16_b32_m$m $B32 --batch 32 --dtype fp16 --layout nhwc
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
