# Session 30, call 7: bank-conflict-free staging rows and epilogue scratch reads in
# implicit_gemm_coopmat (on by default in this build; VKCONV_COOPMAT_SWIZZLE=0 restores the old
# order), fp16 NHWC, one binary: the phase trace of two tiles on VGG-16 features.7 b32 off / on; the
# suites off / on / off at b32, on / off at b1, bf16 NHWC b32 on / off; the coopmat, halo, winograd
# and trace tests with it on (validation layer).  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests_swizzle.log 170 '*coopmat*:*Coopmat*:winograd*'
printf 'suite,layer,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups\nvgg16,features.7,32,128,112,112,128,3,3,1,1,1,1,1,1,1\n' > /tmp/f7.csv
for W in 0 1; do
  for T in 192x128x64/4x4s1 128x256x32/2x4s1; do
    n=${T//\//_}_sw$W
    S="--shapes /tmp/f7.csv --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --warmup-ms 100 --tile $T/s1"
    VKCONV_COOPMAT_SWIZZLE=$W RUN_TIMEOUT=40 bench_checked new traced_$n $S --trace $OUT/tr_$n
    timeout 60 python3 bench/coopmat_trace.py $OUT/tr_$n/*.vktrace --json $OUT/trace_$n.json > $OUT/trace_$n.txt 2>&1
    grep -E "cycles per|epilogue:" $OUT/trace_$n.txt; rm -rf $OUT/tr_$n
  done
done
C32="--dtype fp16 --layout nhwc --batch 32 $B32 --warmup-ms 100"
C1="--dtype fp16 --layout nhwc --batch 1 --warmup-ms 100"
VKCONV_COOPMAT_SWIZZLE=0 RUN_TIMEOUT=100 bench_checked new b32_off $C32
RUN_TIMEOUT=100 bench_checked new b32_on $C32
VKCONV_COOPMAT_SWIZZLE=0 RUN_TIMEOUT=100 bench_checked new b32_off2 $C32
RUN_TIMEOUT=60 bench_checked new b1_on $C1
VKCONV_COOPMAT_SWIZZLE=0 RUN_TIMEOUT=60 bench_checked new b1_off $C1
LEFT=$(( 570 - ($(date +%s) - T0) ))
if [ $LEFT -gt 200 ]; then
  RUN_TIMEOUT=95 bench_checked new bf16_b32_on --dtype bf16 --layout nhwc --batch 32 $B32 --warmup-ms 100
  VKCONV_COOPMAT_SWIZZLE=0 RUN_TIMEOUT=95 bench_checked new bf16_b32_off --dtype bf16 --layout nhwc --batch 32 $B32 --warmup-ms 100
fi
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.log && rm -f *.json *.txt *.log; ls -la)
