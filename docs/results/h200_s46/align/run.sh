# Session 46, call 5: halo_coopmat's fp16 NCHW output paths behind the transposes, forced
# (coopmat_nhwc with halo_coopmat), every row checked, on the four layers it takes or took in fp16
# NCHW (halo_fp16.csv: RDNA1 ch_128_256 ran 36.7 µs on it against 22.9 on plain winograd and 26.5
# for bf16's element-wise stores): pixel runs in strips padded to 8 columns (the shipped build),
# runs in unpadded strips (VKCONV_HALO_ALIGN=0), element-wise stores (VKCONV_NCHW_RUNS=0); b1
# twice in rotation, then b32.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
H="--shapes docs/results/h200_s46/halo_fp16.csv --layout nchw --dtype fp16 --algo coopmat_nhwc --tile halo_coopmat"
for i in 1 2; do
  RUN_TIMEOUT=50 bench_checked new b1_pad_$i $H --batch 1
  VKCONV_HALO_ALIGN=0 RUN_TIMEOUT=40 bench_checked new b1_nopad_$i $H --batch 1
  VKCONV_NCHW_RUNS=0 RUN_TIMEOUT=40 bench_checked new b1_elem_$i $H --batch 1
done
RUN_TIMEOUT=60 bench_checked new b32_pad $H --batch 32
VKCONV_HALO_ALIGN=0 RUN_TIMEOUT=60 bench_checked new b32_nopad $H --batch 32
VKCONV_NCHW_RUNS=0 RUN_TIMEOUT=60 bench_checked new b32_elem $H --batch 32
RUN_TIMEOUT=40 bench_checked new b1_router --shapes docs/results/h200_s46/halo_fp16.csv --layout nchw --dtype fp16 --batch 1
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
