# Session 31, call 3: lean load addressing in implicit_gemm_coopmat (LEAN_ADDR: each staged
# item's 16-byte word offset computed once, one uniform delta per slice; on in this build,
# VKCONV_COOPMAT_LEAN_ADDR=0 restores the old arithmetic), one binary.  The machine code of the
# two main tiles both ways (bench/nv_sass.py: the slice loop's instruction mix), then fp16 NHWC
# b32 old / lean / old / lean and b1 lean / old, every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
ND=$(which nvdisasm || ls /usr/local/cuda*/bin/nvdisasm | head -1)
sass() {  # NAME TILE [ENV...]
  local n=$1 t=$2; shift 2
  env "$@" VKCONV_CACHE_DIR=none timeout 60 $C/bin/vkconv-bench --shader-stats --algo implicit_gemm_coopmat --tile $t --isa $OUT/isa_$n > /dev/null 2>&1
  rm -f $OUT/isa_$n/*peak_probe* $OUT/isa_$n/*splitk*
  timeout 60 python3 bench/nv_sass.py $OUT/isa_$n --nvdisasm "$ND" --out $OUT/sass_$n --json $OUT/mix_$n.json > $OUT/mix_$n.txt 2>&1
  say "sass $n"; grep -A1 "coopmat_f16 " $OUT/mix_$n.txt | head -4
}
sass 4x4s1_old 192x128x64/4x4s1 VKCONV_COOPMAT_LEAN_ADDR=0
sass 4x4s1_lean 192x128x64/4x4s1
sass 2x4s1_old 128x256x32/2x4s1 VKCONV_COOPMAT_LEAN_ADDR=0
sass 2x4s1_lean 128x256x32/2x4s1
C32="--dtype fp16 --layout nhwc --batch 32 $B32 --warmup-ms 100"
C1="--dtype fp16 --layout nhwc --batch 1 --warmup-ms 100"
VKCONV_COOPMAT_LEAN_ADDR=0 RUN_TIMEOUT=100 bench_checked new b32_old $C32
RUN_TIMEOUT=100 bench_checked new b32_lean $C32
VKCONV_COOPMAT_LEAN_ADDR=0 RUN_TIMEOUT=100 bench_checked new b32_old2 $C32
RUN_TIMEOUT=100 bench_checked new b32_lean2 $C32
LEFT=$(( 570 - ($(date +%s) - T0) ))
if [ $LEFT -gt 110 ]; then
  RUN_TIMEOUT=55 bench_checked new b1_lean $C1
  VKCONV_COOPMAT_LEAN_ADDR=0 RUN_TIMEOUT=55 bench_checked new b1_old $C1
fi
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar cJf sass.tar.xz sass_* mix_* && rm -rf sass_* isa_* mix_* && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la)
