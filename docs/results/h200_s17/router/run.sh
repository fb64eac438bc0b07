# Session 17, call 7: the winograd router charging the direct GEMM one pass's fixed time too (the
# fit's 17 µs covers winograd's four passes) against add6f30 (without it): fp16 NHWC b32 on the
# four b32 suites, b1 on all six, old then new, every row --check'ed; cuDNN fp16 NHWC same call.
# Packed with OLD_BUILD=<add6f30 build> scripts/device_pack.sh build-dev.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for v in old new; do
  RUN_TIMEOUT=100 bench_checked $v fp16_b32_$v $B32 --batch 32 --dtype fp16 --layout nhwc
  RUN_TIMEOUT=100 bench_checked $v fp16_b1_$v $ALL --batch 1 --dtype fp16 --layout nhwc
done
say cudnn
timeout 120 python3 bench/torch_baseline.py $ALL --config fp16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
