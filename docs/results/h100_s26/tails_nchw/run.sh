# Session 26, call 6: 16-bit NCHW activations on the slice-tail layers (call 5: behind
# coopmat_nhwc's transposes 8 of the 11 pointwise ones ran slower than the scalar GEMM, the two 3x3
# faster).  fp16 NCHW at b1 and b32: implicit_gemm_coopmat forced (its own NCHW staging, no
# transposes), coopmat_nhwc forced, implicit_gemm (the old router's pick).  Every row checked.
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
T=/tmp/tails.csv
cp bench/cases/channel_tails.csv $T; grep ",features.3.conv.0.0," bench/suites/mobilenet_v2.csv >> $T
for b in 1 32; do
  for a in implicit_gemm_coopmat coopmat_nhwc implicit_gemm; do
    RUN_TIMEOUT=60 bench_checked new nchw_${a}_b$b --shapes $T --batch $b --dtype fp16 --layout nchw --algo $a
  done
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log && rm -f *.json *.txt *.err *.log; ls)
