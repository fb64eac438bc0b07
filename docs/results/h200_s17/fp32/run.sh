# Session 17, call 6: issue 4's fp32 targets at this session's HEAD (F(4x4) at the new points):
# the router on every suite in fp32 NCHW (b32: the four b32 suites; b1: all six), every row
# --check'ed, then cuDNN fp32 NCHW (TF32 off) on the same batches in the same call.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
fp32_auto_and_cudnn
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
