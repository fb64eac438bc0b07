# Session 26, call 5: implicit_gemm_coopmat with zero-filled slice tails (C/groups % 16 == 8):
#  - its tests (the new c24/c40 cases, every tile on c40_tail, the declines) with the validation layer;
#  - MobileNetV2 features.3.conv.0.0 (C = 24) and bench/cases/channel_tails.csv (MobileNetV3-Large,
#    EfficientNet-B0, two synthetic 3x3) at b1 and b32, fp16 NHWC: every accepting algorithm
#    (--algo all: the old router's pick, a scalar kernel, is among them) and the router;
#  - fp16 NCHW of the same at b32 (coopmat_nhwc now takes them) against the old pick forced;
#  - cuDNN fp16 NHWC on the same rows.
# Every vkconv row checked.
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
T=/tmp/tails.csv
cp bench/cases/channel_tails.csv $T; grep ",features.3.conv.0.0," bench/suites/mobilenet_v2.csv >> $T
tests_validated tests.log 150 '*Coopmat*c24*:*Coopmat*c40*:*CoopmatDeclines*:*CoopmatRouting*'
for b in 1 32; do
  RUN_TIMEOUT=120 bench_checked new all_b$b --shapes $T --batch $b --dtype fp16 --layout nhwc --algo all --max-gflop 20
  RUN_TIMEOUT=60 bench_checked new auto_b$b --shapes $T --batch $b --dtype fp16 --layout nhwc
  RUN_TIMEOUT=60 bench_checked new bf16_b$b --shapes $T --batch $b --dtype bf16 --layout nhwc
done
RUN_TIMEOUT=60 bench_checked new nchw_auto_b32 --shapes $T --batch 32 --dtype fp16 --layout nchw
RUN_TIMEOUT=60 bench_checked new nchw_igemm_b32 --shapes $T --batch 32 --dtype fp16 --layout nchw --algo implicit_gemm
say cudnn
timeout 90 python3 bench/torch_baseline.py --shapes $T --config fp16_nhwc --config bf16_nhwc --config fp16_nchw --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log && rm -f *.json *.txt *.err *.log; ls)
