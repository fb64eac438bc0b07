# Session 49, call 6 (the final build): 2-filter words through the fp32 scratch only (the fp16
# scratch's were slower on 192x128x64/4x4s1 in call 5; perf-notes 131), against the element stores
# (VKCONV_NHWC_OUT4=0) in one binary: `../out2/narrow.csv` fp16 and bf16 NHWC at b32 (twice) and b1,
# `../grouped/gemm.csv` on the two tiles of call 5 that had moved apart (fp16), the box heads with
# 4-filter words (`../out4/box.csv`, fp16 and bf16 NHWC b32); every row checked.  Then the
# narrow-word tests and those of halo_coopmat, implicit_gemm_coopmat and winograd on the matrix
# units with the validation layer.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
N=docs/results/h200_s49/out2/narrow.csv G=docs/results/h200_s49/grouped/gemm.csv X=docs/results/h200_s49/out4/box.csv
for i in 1 2; do
  for dt in fp16 bf16; do
    for b in 32 1; do
      [ $i = 2 ] && [ $b = 1 ] && continue
      VKCONV_NHWC_OUT4=0 RUN_TIMEOUT=60 bench_checked new old_${dt}_b${b}_$i --shapes $N --batch $b --dtype $dt --layout nhwc
      RUN_TIMEOUT=60 bench_checked new new_${dt}_b${b}_$i --shapes $N --batch $b --dtype $dt --layout nhwc
    done
  done
done
for t in 192x128x64/4x4s1/s1 128x256x32/2x4s1/s1; do
  n=$(echo $t | cut -d/ -f1)
  VKCONV_NHWC_OUT4=0 RUN_TIMEOUT=40 bench_checked new gold_fp16_$n --shapes $G --batch 1 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile $t
  RUN_TIMEOUT=40 bench_checked new gnew_fp16_$n --shapes $G --batch 1 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --tile $t
done
for dt in fp16 bf16; do
  VKCONV_NHWC_OUT4=0 RUN_TIMEOUT=60 bench_checked new boxold_${dt}_b32 --shapes $X --batch 32 --dtype $dt --layout nhwc
  RUN_TIMEOUT=60 bench_checked new boxnew_${dt}_b32 --shapes $X --batch 32 --dtype $dt --layout nhwc
done
L=$(( 480 - ($(date +%s) - T0) )); [ $L -gt 20 ] && tests_validated tests_narrow.log $L '*out2*:*out4*:*k9_*:*bf16_k20*'
L=$(( 575 - ($(date +%s) - T0) )); [ $L -gt 20 ] && tests_validated tests.log $L '*HaloCoopmat*:*CoopmatShapes*:*WinogradCoopmat*:*PointwiseCoopmat*:*SlicedK*-*out2*:*out4*:*k9_*:*bf16_k20*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.json *.txt *.xz && rm -f *.json *.txt *.xz; ls -la | head)
