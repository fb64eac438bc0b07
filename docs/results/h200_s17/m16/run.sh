# Session 17, call 2: fp16 M in fp16 (the batched GEMM an ordinary grouped 1x1 convolution on the
# matrix units) against call 1's raw fp32 M (VKCONV_WINOGRAD_FP32_M=1), F(4x4) forced on every 3x3
# stride-1 layer; the batched GEMMs of five layers alone (gemm/wgemm.csv: F(4x4)'s 36 groups, one
# "pixel" per tile) to split each layer's time into GEMM and transforms; the winograd tests with the
# validation layer.  Every row --check'ed.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 100 'winograd*:Winograd*'
S3="--suite resnet50 --suite vgg16 --suite retinanet_head"
S1="--suite vgg16 --suite retinanet_head --suite sd_vae_decoder"
RUN_TIMEOUT=100 bench_checked new w4m16_fp16_b32 $S3 --batch 32 --dtype fp16 --layout nhwc --algo winograd --tile 4x4
VKCONV_WINOGRAD_FP32_M=1 RUN_TIMEOUT=100 bench_checked new w4m32_fp16_b32 $S3 --batch 32 --dtype fp16 --layout nhwc --algo winograd --tile 4x4
RUN_TIMEOUT=40 bench_checked new w4m16_fp16_b1 $S1 --batch 1 --dtype fp16 --layout nhwc --algo winograd --tile 4x4
RUN_TIMEOUT=40 bench_checked new w2m16_fp16_b1 $S1 --batch 1 --dtype fp16 --layout nhwc --algo winograd --tile 2x2
say gemm
timeout 100 $C/bin/vkconv-bench --suites-dir docs/results/h200_s17/m16/gemm --suite wgemm --batch 1 --dtype fp16 --layout nhwc \
  --check --json "$OUT/gemm.json" > "$OUT/gemm.txt" 2>&1; echo "exit $?"; grep -E "wgemm " "$OUT/gemm.txt" | cut -c1-200
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
