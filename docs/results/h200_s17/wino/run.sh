# Session 17, call 1: winograd with its batched GEMM on the matrix units (16-bit V and U, raw fp32
# M from implicit_gemm_coopmat's split-K pass-1 shader at one split; F(4x4) at the points 0, 1, -1,
# 1/2, -2).  The new tests with the validation layer; both variants forced on every 3x3 stride-1
# layer (fp16 b32, b1; bf16 VGG-16 b32); the router old (89527c8) / new on the same suites.
# Every row --check'ed.  Packed with OLD_BUILD=<89527c8 build> scripts/device_pack.sh build-dev.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 150 'winograd*:Winograd*:coopmat/CoopmatShapes.*'
S3="--suite resnet50 --suite vgg16 --suite retinanet_head"
S1="--suite vgg16 --suite retinanet_head --suite sd_vae_decoder"
for t in 4x4 2x2; do
  RUN_TIMEOUT=100 bench_checked new w${t}_fp16_b32 $S3 --batch 32 --dtype fp16 --layout nhwc --algo winograd --tile $t
done
for v in old new; do
  RUN_TIMEOUT=130 bench_checked $v auto_fp16_b32_$v $S3 --batch 32 --dtype fp16 --layout nhwc
done
for t in 4x4 2x2; do
  RUN_TIMEOUT=40 bench_checked new w${t}_bf16_b32 --suite vgg16 --batch 32 --dtype bf16 --layout nhwc --algo winograd --tile $t
  RUN_TIMEOUT=40 bench_checked new w${t}_fp16_b1 $S1 --batch 1 --dtype fp16 --layout nhwc --algo winograd --tile $t
done
for v in old new; do
  RUN_TIMEOUT=40 bench_checked $v auto_fp16_b1_$v $S1 --batch 1 --dtype fp16 --layout nhwc
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
