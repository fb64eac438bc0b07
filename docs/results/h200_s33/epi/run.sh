# Session 33, call 1: the fp16 scratch in the matrix kernels' epilogues (EPI16, perf-notes 92):
#  1. the tests of the four kernels that take it, on real cooperative matrices, validation layer on
#     (the fp16 accumulator type the conversion makes must be one the device reports);
#  2. fp16 NHWC b32 (ResNet-50, VGG-16, MobileNetV2, RetinaNet) and b1 (every suite): the fp32
#     scratch (VKCONV_COOPMAT_EPI16=0) and the fp16 one (=1), one binary, off / on / off / on at
#     b1, every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
tests_validated tests_epi.log 150 '*Pointwise*:coopmat/CoopmatTiles.*:coopmat/CoopmatShapes.*:coopmat/HaloCoopmatTiles.*:coopmat/FewChannelsCoopmatTiles.*'
for e in 0 1; do
  VKCONV_COOPMAT_EPI16=$e RUN_TIMEOUT=150 bench_checked new b32_e$e $B32 --batch 32 --dtype fp16 --layout nhwc
done
for r in a b; do for e in 0 1; do
  LEFT=$(( 570 - ($(date +%s) - T0) ))
  [ $LEFT -gt 40 ] && VKCONV_COOPMAT_EPI16=$e RUN_TIMEOUT=$(( LEFT < 80 ? LEFT : 80 )) bench_checked new b1_e${e}$r $ALL --batch 1 --dtype fp16 --layout nhwc
done; done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la)
