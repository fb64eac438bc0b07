# Session 21, call 6: split-K down to 2 slices per split on the matrix units (was 4; perf-notes
# item 55), against the build before (442ea44, carried xz-compressed for the 64 MiB limit).
# fp16 NHWC, every row checked: b1 on the six suites new / old / new, b32 MobileNetV2 and
# RetinaNet new / old.  Coopmat, split-K, router and tile-model tests with the validation layer.
[ -f .carry/old/bin/vkconv-bench.xz ] && xz -d .carry/old/bin/vkconv-bench.xz
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 150 'TileScore.*:*oopmat*:*plitK*:*Routing*:*Router*'
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
F="--dtype fp16 --layout nhwc"
RUN_TIMEOUT=120 bench_checked new fp16_b1_new $ALL --batch 1 $F
RUN_TIMEOUT=120 bench_checked old fp16_b1_old $ALL --batch 1 $F
RUN_TIMEOUT=120 bench_checked new fp16_b1_new2 $ALL --batch 1 $F
RUN_TIMEOUT=100 bench_checked new fp16_b32_new --suite mobilenet_v2 --suite retinanet_head --batch 32 $F
RUN_TIMEOUT=100 bench_checked old fp16_b32_old --suite mobilenet_v2 --suite retinanet_head --batch 32 $F
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
