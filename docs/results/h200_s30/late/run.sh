# Session 30, call 6: the two-ahead global loads issued after a slice's products instead of before
# them (VKCONV_COOPMAT_LOAD_LATE=1; the 32-deep tiles on NVIDIA), one binary: the phase trace of
# 128x256x32/2x4s1 and 256x128x32/4x2s1 on VGG-16 features.7 b32 and the router's plan of RetinaNet
# cls_out_13 b32, each off / on, untraced and traced; fp16 NHWC suites off / on / off at b32 and on /
# off at b1; the coopmat tests with it on (validation layer).  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
VKCONV_COOPMAT_LOAD_LATE=1 tests_validated tests_late.log 120 'coopmat/CoopmatTiles*:coopmat/CoopmatShapes*:coopmat_wn32*:CoopmatTrace*'
printf 'suite,layer,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups\nvgg16,features.7,32,128,112,112,128,3,3,1,1,1,1,1,1,1\n' > /tmp/f7.csv
printf 'suite,layer,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups\nretinanet_head,cls_out_13,32,256,13,13,720,3,3,1,1,1,1,1,1,1\n' > /tmp/c13.csv
for L in 0 1; do
  for T in 128x256x32/2x4s1 256x128x32/4x2s1; do
    n=${T//\//_}_late$L
    S="--shapes /tmp/f7.csv --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --warmup-ms 100 --tile $T/s1"
    VKCONV_COOPMAT_LOAD_LATE=$L RUN_TIMEOUT=40 bench_checked new plain_$n $S
    VKCONV_COOPMAT_LOAD_LATE=$L RUN_TIMEOUT=40 bench_checked new traced_$n $S --trace $OUT/tr_$n
    timeout 60 python3 bench/coopmat_trace.py $OUT/tr_$n/*.vktrace --json $OUT/trace_$n.json > $OUT/trace_$n.txt 2>&1
    grep -E "cycles per|shares" $OUT/trace_$n.txt; rm -rf $OUT/tr_$n
  done
  S="--shapes /tmp/c13.csv --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --warmup-ms 100"
  VKCONV_COOPMAT_LOAD_LATE=$L RUN_TIMEOUT=40 bench_checked new plain_c13_late$L $S
  VKCONV_COOPMAT_LOAD_LATE=$L RUN_TIMEOUT=40 bench_checked new traced_c13_late$L $S --trace $OUT/tr_c13_$L
  timeout 60 python3 bench/coopmat_trace.py $OUT/tr_c13_$L/*.vktrace --json $OUT/trace_c13_late$L.json > $OUT/trace_c13_late$L.txt 2>&1
  grep -E "cycles per|shares" $OUT/trace_c13_late$L.txt; rm -rf $OUT/tr_c13_$L
done
C32="--dtype fp16 --layout nhwc --batch 32 $B32 --warmup-ms 100"
C1="--dtype fp16 --layout nhwc --batch 1 --warmup-ms 100"
RUN_TIMEOUT=100 bench_checked new b32_off $C32
VKCONV_COOPMAT_LOAD_LATE=1 RUN_TIMEOUT=100 bench_checked new b32_on $C32
RUN_TIMEOUT=100 bench_checked new b32_off2 $C32
VKCONV_COOPMAT_LOAD_LATE=1 RUN_TIMEOUT=60 bench_checked new b1_on $C1
RUN_TIMEOUT=60 bench_checked new b1_off $C1
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.log && rm -f *.json *.txt *.log; ls -la)
