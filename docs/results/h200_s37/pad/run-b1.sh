# Session 37, call 12: every implicit_gemm_coopmat plan of the b1 suites declaring 34 KiB of
# shared memory (VKCONV_COOPMAT_SMEM_PAD_KIB=34: one workgroup to an SM on the H200, call 11)
# against the router as is, fp16 NHWC, alternating, every row checked: do one-wave grids run
# faster spread one workgroup to an SM (call 11: 64x64x32/2x4 forced on 27 b1 layers 299.5 ->
# 274.6 µs)?
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
for i in 1 2; do
  RUN_TIMEOUT=120 bench_checked new b1_nopad_$i $ALL --batch 1 --dtype fp16 --layout nhwc
  VKCONV_COOPMAT_SMEM_PAD_KIB=34 RUN_TIMEOUT=120 bench_checked new b1_pad34_$i $ALL --batch 1 --dtype fp16 --layout nhwc
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la)
