# Session 50, call 3: where B in registers (BREG) pays.  Call 2 left MobileNetV2 features.0.0 (32
# filters, stride 2) 1.27x slower with it in NCHW and level in NHWC while the 64-filter first
# layers gained.  `../sweep.csv`: the four first layers and two controls (3x3 stride 2 with 64
# filters, stride 1 with 32), fp16 b32, NHWC and NCHW: the router and seven forced tiles, each
# with B in shared memory (VKCONV_FEW_COOPMAT_BREG=0) and in registers, one binary, every row checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
F=docs/results/h200_s50/sweep.csv
for lay in nchw nhwc; do
  for t in router 8x32x32/1x1p2 8x32x32/1x1p4 4x32x32/1x1p2 4x32x32/1x1p4 4x32x64/1x2p4 4x32x64/1x2p8 8x16x32/1x1p4; do
    a=; [ $t = router ] || a="--algo few_channels_coopmat --tile $t"
    for v in 0 1; do
      VKCONV_FEW_COOPMAT_BREG=$v RUN_TIMEOUT=40 bench_checked new ${lay}_${t//\//_}_breg$v --shapes $F --batch 32 --dtype fp16 --layout $lay $a
    done
  done
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
