# Session 17, call 4: the NHWC winograd transforms with two 16-bit channels (filters) per
# invocation ("pairs") against one (VKCONV_WINOGRAD_NO_PAIRS=1), F(4x4) forced on every 3x3 layer
# (fp16 b32 ResNet-50/VGG-16/RetinaNet, b1 VGG-16/RetinaNet/SD-VAE); then the router old (89527c8)
# / new and cuDNN fp16 NHWC in the same call as in final/.  Tests with the validation layer first.
# Every row --check'ed.  Packed with OLD_BUILD=<89527c8 build> scripts/device_pack.sh build-dev.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 100 'winograd*:Winograd*'
S3="--suite resnet50 --suite vgg16 --suite retinanet_head"
S1="--suite vgg16 --suite retinanet_head --suite sd_vae_decoder"
VKCONV_WINOGRAD_NO_PAIRS=1 RUN_TIMEOUT=80 bench_checked new w4_nopairs_b32 $S3 --batch 32 --dtype fp16 --layout nhwc --algo winograd --tile 4x4
RUN_TIMEOUT=80 bench_checked new w4_pairs_b32 $S3 --batch 32 --dtype fp16 --layout nhwc --algo winograd --tile 4x4
RUN_TIMEOUT=40 bench_checked new w4_pairs_b1 $S1 --batch 1 --dtype fp16 --layout nhwc --algo winograd --tile 4x4
RUN_TIMEOUT=40 bench_checked new w2_pairs_b1 $S1 --batch 1 --dtype fp16 --layout nhwc --algo winograd --tile 2x2
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for v in old new; do
  RUN_TIMEOUT=100 bench_checked $v fp16_b32_$v $B32 --batch 32 --dtype fp16 --layout nhwc
  RUN_TIMEOUT=100 bench_checked $v fp16_b1_$v $ALL --batch 1 --dtype fp16 --layout nhwc
done
say cudnn
timeout 120 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
