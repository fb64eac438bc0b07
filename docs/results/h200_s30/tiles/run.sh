# Session 30, call 5: the phase trace of six implicit_gemm_coopmat tiles forced on VGG-16
# features.7 at b32 (fp16 NHWC), each also untraced, to set the products phase per slice against
# each tile's shared-memory fragment traffic and matrix work (perf-notes 78).  Every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
printf 'suite,layer,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups\nvgg16,features.7,32,128,112,112,128,3,3,1,1,1,1,1,1,1\n' > /tmp/f7.csv
S="--shapes /tmp/f7.csv --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --warmup-ms 100"
for T in 192x128x64/4x4s1 192x128x64/4x2s1 128x256x32/2x4s1 256x128x32/4x2s1 128x128x64/2x4s1 128x128x32/2x4; do
  n=${T//\//_}
  RUN_TIMEOUT=40 bench_checked new plain_$n $S --tile $T/s1
  RUN_TIMEOUT=40 bench_checked new traced_$n $S --tile $T/s1 --trace $OUT/tr_$n
  timeout 60 python3 bench/coopmat_trace.py $OUT/tr_$n/*.vktrace --json $OUT/trace_$n.json > $OUT/trace_$n.txt 2>&1
  cat $OUT/trace_$n.txt; rm -rf $OUT/tr_$n
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.log && rm -f *.json *.txt *.log; ls -la)
