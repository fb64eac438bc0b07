# Session 18, call 5: bf16 NHWC through the router with halo_coopmat against the same build without
# it (VKCONV_HALO_COOPMAT=0): b32 on the four b32 suites, b1 on all six, every row --check'ed; cuDNN
# bf16 NHWC in the same call (the README's bf16 columns).
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for v in off on; do
  e=; [ $v = off ] && e=0
  VKCONV_HALO_COOPMAT=$e RUN_TIMEOUT=100 bench_checked new bf16_b32_$v $B32 --batch 32 --dtype bf16 --layout nhwc
  VKCONV_HALO_COOPMAT=$e RUN_TIMEOUT=100 bench_checked new bf16_b1_$v $ALL --batch 1 --dtype bf16 --layout nhwc
done
say cudnn
timeout 150 python3 bench/torch_baseline.py $ALL --config bf16_nhwc --batch 1 --batch 32 --json "$OUT/cudnn.json" > "$OUT/cudnn.txt" 2> "$OUT/cudnn.err"
echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
