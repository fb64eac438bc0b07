# Session 18, call 7: halo_coopmat's heuristic choosing between 256x64/4x1 and 128x64/2x2 by the
# fitted time (128x64/2x2 on grids of a wave or two), against ee0237d (4x1 only): fp16 NHWC b1 on
# all six suites and b32 on the four b32 suites, old then new; bf16 b1/b32 new; every row
# --check'ed; cuDNN fp16 and bf16 NHWC in the same call.  Tests with the validation layer first.
# Packed with OLD_BUILD=<ee0237d build> scripts/device_pack.sh build-dev.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 150 '*HaloCoopmat*:coopmat/CoopmatShapes.*:*Routing*:*Router*'
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for v in old new; do
  RUN_TIMEOUT=100 bench_checked $v fp16_b1_$v $ALL --batch 1 --dtype fp16 --layout nhwc
  RUN_TIMEOUT=100 bench_checked $v fp16_b32_$v $B32 --batch 32 --dtype fp16 --layout nhwc
done
RUN_TIMEOUT=100 bench_checked new bf16_b1_new $ALL --batch 1 --dtype bf16 --layout nhwc
RUN_TIMEOUT=100 bench_checked new bf16_b32_new $B32 --batch 32 --dtype bf16 --layout nhwc
say cudnn
timeout 200 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
