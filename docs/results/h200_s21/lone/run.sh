# Session 21, call 2: the coopmat model with lone workgroups (perf-notes item 53).  Same build;
# VKCONV_COOPMAT_LONE=0 is the model before (every workgroup 1/resident of its SM).  fp16 NHWC:
# b1 on the six suites and b32 on the four, each old then new then old again at b1 (the b1 rows are
# a few us: the second old run says how far the same build moves between runs); cuDNN fp16 in the
# same call.  Every row checked.  Coopmat, split-K and router tests with the validation layer first.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 150 'TileScore.*:*oopmat*:*plitK*:*Routing*:*Router*'
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
F="--dtype fp16 --layout nhwc"
VKCONV_COOPMAT_LONE=0 RUN_TIMEOUT=120 bench_checked new fp16_b1_old $ALL --batch 1 $F
RUN_TIMEOUT=120 bench_checked new fp16_b1_new $ALL --batch 1 $F
VKCONV_COOPMAT_LONE=0 RUN_TIMEOUT=120 bench_checked new fp16_b1_old2 $ALL --batch 1 $F
VKCONV_COOPMAT_LONE=0 RUN_TIMEOUT=100 bench_checked new fp16_b32_old --suite resnet50 --suite mobilenet_v2 --batch 32 $F
RUN_TIMEOUT=100 bench_checked new fp16_b32_new --suite resnet50 --suite mobilenet_v2 --batch 32 $F
say cudnn; timeout 150 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --batch 1 --json $OUT/cudnn.json > /dev/null 2> $OUT/cudnn.err; echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
