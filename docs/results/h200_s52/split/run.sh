# Session 52, call 4: split-K on ResNet-50's small-grid layers at b32 (M = 1568-6272 pixels, the
# widest gaps to cuDNN of its b32 column), fp16 NHWC: the router, then `implicit_gemm_coopmat`
# forced on four tiles x 1, 2, 4, 8 splits and the router's tile with 2 and 4 splits
# (../small_m.csv), every row checked.  Item 57 (session 22) found the router within 2.5 % of
# such a sweep; the kernel has changed since.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
S="--shapes docs/results/h200_s52/small_m.csv --batch 32 --dtype fp16 --layout nhwc"
RUN_TIMEOUT=60 bench_checked new router $S
for t in 128x128x64/2x4s1 64x64x64/2x4 128x256x32/2x4s1 192x128x64/4x4s1; do
  for sp in 1 2 4 8; do
    n=$(echo "${t}_s$sp" | tr '/' '_')
    RUN_TIMEOUT=60 bench_checked new $n $S --algo implicit_gemm_coopmat --tile $t/s$sp
  done
done
for sp in 2 4; do RUN_TIMEOUT=60 bench_checked new router_s$sp $S --algo implicit_gemm_coopmat --tile s$sp; done
RUN_TIMEOUT=60 bench_checked new router_again $S
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err 2>/dev/null; rm -f *.json *.txt *.err; ls -la | head)
