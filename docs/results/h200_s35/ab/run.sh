# Session 35, call 2: the sliced-K routing (32x64x32/2x2k4 one pass, perf-notes 97) and the
# kernel's KSPLIT == 1 path against the build before (78cb57c, .carry/old), every row checked:
#  1. the matrix-kernel tests (every tile incl. the sliced-K ones, shapes, declines, behind
#     coopmat_nhwc, winograd's GEMM; validation layer on);
#  2. fp16 NHWC b32 (ResNet-50, VGG-16, MobileNetV2, RetinaNet): old build, new build (no b32
#     plan changed: this measures the KSPLIT == 1 path alone);
#  3. fp16 NHWC b1, every suite: new, new with VKCONV_COOPMAT_SLICED=0 (the old routing), old;
#  4. fp16 NCHW b1, every suite: new, then VKCONV_COOPMAT_SLICED=0.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/old/bin/*.xz .carry/old/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
tests_validated tests_cm.log 150 '*CoopmatTiles*:*CoopmatShapes*:*CoopmatDeclines*:*CoopmatNhwcTiles*:*WinogradCoopmat*'
RUN_TIMEOUT=100 bench_checked old b32_old $B32 --batch 32 --dtype fp16 --layout nhwc
RUN_TIMEOUT=100 bench_checked new b32_new $B32 --batch 32 --dtype fp16 --layout nhwc
RUN_TIMEOUT=60 bench_checked new fp16_b1 $ALL --batch 1 --dtype fp16 --layout nhwc
VKCONV_COOPMAT_SLICED=0 RUN_TIMEOUT=60 bench_checked new fp16_b1_off $ALL --batch 1 --dtype fp16 --layout nhwc
RUN_TIMEOUT=60 bench_checked old fp16_b1_old $ALL --batch 1 --dtype fp16 --layout nhwc
RUN_TIMEOUT=60 bench_checked new nchw_b1 $ALL --batch 1 --dtype fp16 --layout nchw
VKCONV_COOPMAT_SLICED=0 RUN_TIMEOUT=60 bench_checked new nchw_b1_off $ALL --batch 1 --dtype fp16 --layout nchw
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log && tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la)
