# Session 39, call 6: the filter's narrow KCRS -> KRSC transpose (one invocation per filter row,
# perf-notes 109) against the 32x32 blocks it replaces for 3x3 and smaller taps, same build
# (VKCONV_NARROW_TRANSPOSE=0 / 1), alternating twice: fp16 NCHW b1 every suite, checked; then
# fp16 NCHW b32 ResNet-50 and fp32 NCHW b1 ResNet-50 (implicit_gemm_nhwc's transposes) once each.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for r in 1 2; do
  for n in 0 1; do
    VKCONV_NARROW_TRANSPOSE=$n RUN_TIMEOUT=100 bench_checked new b1_n${n}_$r $ALL --batch 1 --dtype fp16 --layout nchw
  done
done
for n in 0 1; do
  VKCONV_NARROW_TRANSPOSE=$n RUN_TIMEOUT=100 bench_checked new r50_b32_n$n --suite resnet50 --batch 32 --dtype fp16 --layout nchw
  VKCONV_NARROW_TRANSPOSE=$n RUN_TIMEOUT=60 bench_checked new r50_fp32_b1_n$n --suite resnet50 --batch 1 --dtype fp32 --layout nchw
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
