# Session 46, call 1: what each NCHW route costs on the 16-bit 3x3 stride-1 layers at batch 1
# (wino3x3.csv: 38 layers), every row checked, fp16 and bf16 NCHW: the router (which now charges
# the inner direct kernel the filter's KCRS -> KRSC transpose), then each route forced:
# coopmat_nhwc with winograd, implicit_gemm_coopmat or halo_coopmat behind the transposes, and
# plain winograd reading NCHW.  The data for pricing the direct kernels' NCHW route against
# winograd's (perf-notes 123).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
W="--shapes docs/results/h200_s46/wino3x3.csv --batch 1 --layout nchw"
for dt in fp16 bf16; do
  RUN_TIMEOUT=45 bench_checked new ${dt}_router $W --dtype $dt
  RUN_TIMEOUT=45 bench_checked new ${dt}_cmwino $W --dtype $dt --algo coopmat_nhwc --tile winograd
  RUN_TIMEOUT=45 bench_checked new ${dt}_cmigemm $W --dtype $dt --algo coopmat_nhwc --tile implicit_gemm_coopmat
  RUN_TIMEOUT=45 bench_checked new ${dt}_cmhalo $W --dtype $dt --algo coopmat_nhwc --tile halo_coopmat
  RUN_TIMEOUT=45 bench_checked new ${dt}_plain $W --dtype $dt --algo winograd
done
LEFT=$(( 540 - ($(date +%s) - T0) ))
if [ $LEFT -gt 120 ]; then
  RUN_TIMEOUT=$(( LEFT / 2 - 5 )) bench_checked new fp16_b32_router --shapes docs/results/h200_s45/wino3x3_b32.csv --batch 32 --layout nchw --dtype fp16
  RUN_TIMEOUT=$(( LEFT / 2 - 5 )) bench_checked new fp16_b32_cmwino --shapes docs/results/h200_s45/wino3x3_b32.csv --batch 32 --layout nchw --dtype fp16 --algo coopmat_nhwc --tile winograd
fi
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
