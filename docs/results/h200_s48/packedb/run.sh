# Session 48, call 3: implicit_gemm_coopmat's packed-B tiles (B pre-packed in the matrix units'
# register layout, A alone staged; perf-notes 128) forced against their staged twins on the big
# layers, fp16 NHWC, every row --check'ed: big_b32.csv at b32 and SD-VAE's big layers at b1
# (sdvae_b1.csv).  Packed tiles with --packed-filters (the pack once, as for constant weights) and
# 128x256x32/2x4pb also per call (the pack pass in every call).  Then the packed-B tests with the
# validation layer (the real fp16 and bf16 16x16x16 path).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
left() { local l=$(( $1 - ($(date +%s) - T0) )); echo $(( l < $2 ? l : $2 )); }
D=docs/results/h200_s48/packedb
F="--algo implicit_gemm_coopmat --dtype fp16 --layout nhwc"
i=0
for t in 128x256x32/2x4s1 128x256x32/2x4pb 128x128x64/2x4s1 128x128x64/2x4pb 192x128x64/4x4s1 192x128x64/4x4s1pb \
         128x128x32/2x4 128x128x32/2x4pb 128x128x32/2x2pb 256x128x32/4x2s1 256x128x32/4x2pb; do
  i=$((i+1)); PF=; case $t in *pb) PF=--packed-filters;; esac
  L=$(left 420 60); [ $L -gt 20 ] && RUN_TIMEOUT=$L bench_checked new t${i}_b32 --shapes $D/big_b32.csv --batch 32 $F --tile $t $PF
  L=$(left 430 40); [ $L -gt 15 ] && RUN_TIMEOUT=$L bench_checked new t${i}_b1 --shapes $D/sdvae_b1.csv --batch 1 $F --tile $t $PF
done
L=$(left 470 40); [ $L -gt 20 ] && RUN_TIMEOUT=$L bench_checked new percall_b32 --shapes $D/big_b32.csv --batch 32 $F --tile 128x256x32/2x4pb
L=$(left 490 40); [ $L -gt 20 ] && RUN_TIMEOUT=$L bench_checked new router_b32 --shapes $D/big_b32.csv --batch 32 --dtype fp16 --layout nhwc
L=$(left 580 80); [ $L -gt 15 ] && tests_validated tests.log $L '*packed_b*:*PackedB*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.err *.xz && rm -f *.json *.txt *.err *.xz; ls -la | head)
