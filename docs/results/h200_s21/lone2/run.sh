# Session 21, call 3: the lone-workgroup model's shape between one and `resident` workgroups per
# SM.  old: the build of call 2 (g(k) linear from lone at k = 1 to 1 at k = resident); new: g(k) =
# min(1, k x lone) (two 64x64 workgroups on an SM measured 1.02x its full-occupancy rate in call 1).
# fp16 NHWC, every row checked: b1 on the six suites new / old / new, b32 ResNet-50 and MobileNetV2
# new / old; then 128x64x32/2x2 (unmeasured alone) forced with splits 1-16 on split_b1.csv.
# Coopmat, split-K, router and tile-model tests with the validation layer first.
[ -f .carry/old/bin/vkconv-bench.xz ] && xz -d .carry/old/bin/vkconv-bench.xz  # packed small: the 64 MiB limit
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 150 'TileScore.*:*oopmat*:*plitK*:*Routing*:*Router*'
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
F="--dtype fp16 --layout nhwc"
RUN_TIMEOUT=120 bench_checked new fp16_b1_new $ALL --batch 1 $F
RUN_TIMEOUT=120 bench_checked old fp16_b1_old $ALL --batch 1 $F
RUN_TIMEOUT=120 bench_checked new fp16_b1_new2 $ALL --batch 1 $F
RUN_TIMEOUT=100 bench_checked new fp16_b32_new --suite resnet50 --suite mobilenet_v2 --batch 32 $F
RUN_TIMEOUT=100 bench_checked old fp16_b32_old --suite resnet50 --suite mobilenet_v2 --batch 32 $F
for s in 1 2 4 8 16; do
  RUN_TIMEOUT=60 bench_checked new split_b1_128x64x32_2x2_s$s --shapes docs/results/h200_s21/sweep/split_b1.csv --batch 1 $F --warmup-ms 100 --algo implicit_gemm_coopmat --tile 128x64x32/2x2/s$s | head -2
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
