# Session 61, call 4: the matrix kernels' split-K counts beyond powers of two.  The router tried
# splits 1, 2, 4, 8, 16 only; with VKCONV_COOPMAT_EVERY_SPLIT=1 it tries every count up to its
# limits, and offline (bench/plans_check.sh on the H200 profile) 33 of 1016 plans move, on the 11
# layers of moved.csv.  Here: those layers at b1 and b32, fp16 and bf16, NHWC and NCHW (88 rows,
# of which the 33 moved; the other 55 plan the same in both modes and are the control), in the
# order old / new / new / old, every row checked; then the router's tile of ResNet-50
# layer4.0.conv2 (fp16 NHWC b32) forced at 3-8 splits, the model's question.
T0=$(date +%s)
source scripts/device_run.sh none > /dev/null 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
S="--shapes docs/results/h100_s61/split/moved.csv --batch 1 --batch 32 --dtype fp16 --dtype bf16 --layout nhwc --layout nchw"
pack() { (cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err 2>/dev/null); }
i=0
for m in 0 1 1 0; do
  i=$((i+1))
  VKCONV_COOPMAT_EVERY_SPLIT=$m RUN_TIMEOUT=100 bench_checked new run${i}_every$m $S; pack
done
L="--shapes docs/results/h100_s61/split/l402.csv --batch 32 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat"
for sp in 3 4 5 6 7 8; do
  RUN_TIMEOUT=40 bench_checked new l402_s$sp $L --tile 128x256x32/2x4s1/s$sp; pack
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob; tar czf results.tgz *.json *.txt *.err *.csv && rm -f *.json *.txt *.err *.csv; ls -la | head)
