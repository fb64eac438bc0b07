# Session 31, call 2: two changes read off the matrix kernel's machine code (call 1), one binary,
# each behind an environment switch, fp16 NHWC b32 (four suites), every row checked:
#  - pipelines without the driver's storage-buffer bounds checks (VK_EXT_pipeline_robustness;
#    VKCONV_BOUNDS_CHECKS=1 keeps them): two instructions per global load and store;
#  - staggered load issue (VKCONV_COOPMAT_STAGGER=N): subgroup w issues the next slice's loads
#    before reduction step (w/4) % N instead of every subgroup before step 0.
# First the machine code of the main tiles under each switch (bench/nv_sass.py), then the suites
# old / checks off / + stagger 2 / + stagger 4 / old.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ND=$(which nvdisasm || ls /usr/local/cuda*/bin/nvdisasm | head -1)
sass() {  # NAME TILE [ENV...]
  local n=$1 t=$2; shift 2
  env "$@" VKCONV_CACHE_DIR=none timeout 60 $C/bin/vkconv-bench --shader-stats --algo implicit_gemm_coopmat --tile $t --isa $OUT/isa_$n > /dev/null 2>&1
  rm -f $OUT/isa_$n/*peak_probe* $OUT/isa_$n/*bf16* $OUT/isa_$n/*splitk*
  timeout 60 python3 bench/nv_sass.py $OUT/isa_$n --nvdisasm "$ND" --out $OUT/sass_$n --json $OUT/mix_$n.json > $OUT/mix_$n.txt 2>&1
  say "sass $n"; grep -A1 "coopmat_f16 " $OUT/mix_$n.txt | head -4
}
sass 4x4s1_checks 192x128x64/4x4s1 VKCONV_BOUNDS_CHECKS=1
sass 4x4s1 192x128x64/4x4s1
sass 4x4s1_st2 192x128x64/4x4s1 VKCONV_COOPMAT_STAGGER=2
sass 2x4s1_checks 128x256x32/2x4s1 VKCONV_BOUNDS_CHECKS=1
sass 2x4s1_st2 128x256x32/2x4s1 VKCONV_COOPMAT_STAGGER=2
C32="--dtype fp16 --layout nhwc --batch 32 $B32 --warmup-ms 100"
VKCONV_BOUNDS_CHECKS=1 RUN_TIMEOUT=100 bench_checked new b32_old $C32
RUN_TIMEOUT=100 bench_checked new b32_unchecked $C32
VKCONV_COOPMAT_STAGGER=2 RUN_TIMEOUT=100 bench_checked new b32_st2 $C32
VKCONV_COOPMAT_STAGGER=4 RUN_TIMEOUT=100 bench_checked new b32_st4 $C32
LEFT=$(( 575 - ($(date +%s) - T0) ))
[ $LEFT -gt 60 ] && VKCONV_BOUNDS_CHECKS=1 RUN_TIMEOUT=$(( LEFT < 100 ? LEFT : 100 )) bench_checked new b32_old2 $C32
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar cJf sass.tar.xz sass_* mix_* && rm -rf sass_* isa_* mix_* && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la)
