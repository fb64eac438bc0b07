# Session 29, call 2 (perf-notes 72-73).  One binary:
#  - halo_coopmat's three-fragment-column tiles 256x48/4x1 and 128x48/2x1 (new, forced only): the
#    halo tests on the matrix units (validation layer on), then every RetinaNet head layer (36- and
#    720-filter outputs waste 44 % / 6 % of 64-wide tiles, 0 % of 48-wide ones; 256 filters for
#    reference) forced on 256x64/4x1, 256x48/4x1, 128x64/2x2 and 128x48/2x1, fp16 NHWC, b1 and b32;
#  - implicit_gemm_coopmat on C/groups = 144 (MobileNetV2 features.3/4.conv.2, today on 16-deep
#    tiles), with VKCONV_COOPMAT_TAILS=1 letting the 32- and 64-deep tiles take a zero-filled slice
#    tail: seven tiles forced at b1 and b32, then the router (TAILS 0 / 1 / 0) on MobileNetV2 b1+b32.
# Every bench row checked against the float64 reference.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests_halo.log 150 '*HaloCoopmat*'
H="--dtype fp16 --layout nhwc --algo halo_coopmat --suite retinanet_head"
for b in 1 32; do for T in 256x64/4x1 256x48/4x1 128x64/2x2 128x48/2x1; do
  RUN_TIMEOUT=60 bench_checked new halo_b${b}_${T//\//_} $H --batch $b --tile $T
done; done
M="--dtype fp16 --layout nhwc --algo implicit_gemm_coopmat --shapes bench/cases/mbv2_c144.csv --batch 1 --batch 32"
for T in 128x128x16/2x4 64x32x16/2x1 64x64x64/2x4 64x64x32/2x4 64x64x32/2x2 128x128x32/2x4 128x64x32/2x2; do
  VKCONV_COOPMAT_TAILS=1 RUN_TIMEOUT=40 bench_checked new c144_${T//\//_} $M --tile $T
done
for t in 0 1 0b; do
  VKCONV_COOPMAT_TAILS=${t%b} RUN_TIMEOUT=60 bench_checked new mb_T$t --suite mobilenet_v2 --batch 1 --batch 32 --dtype fp16 --layout nhwc
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.log && rm -f *.json *.txt *.log; ls)
