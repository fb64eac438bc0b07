# Session 23, call 7: the b1 mid-size grids (mid.csv: twelve 3x3 layers of VGG-16, the RetinaNet
# head and the RDNA1 matrix that the router keeps on 128-wide tiles or halo_coopmat at 1.5-2.8x
# cuDNN), fp16 NHWC b1, every row checked: the router; the two eight-subgroup 64x64 tiles forced
# at 1-16 splits; winograd F(2x2) forced.  HEAD 55d9b83.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
M=docs/results/h200_s23/mid/mid.csv
f() {  # f NAME [ARGS]
  local n=$1; shift
  RUN_TIMEOUT=60 run_build new --shapes $M --batch 1 --dtype fp16 --layout nhwc --check --warmup-ms 100 --json $OUT/$n.json "$@" > $OUT/$n.txt 2>&1
  echo "$n exit $? $(grep -E '^[0-9]+ passed' $OUT/$n.txt) $(sed -n '/== Summary/,$p' $OUT/$n.txt | grep -E '^[a-z]' | grep -v '^suite' | awk '{printf "%s=%s ", $1, $(NF-3)}')"
}
f auto
for t in 64x64x64/2x4 64x64x32/2x4; do
  for s in 1 2 4 8 16; do f ${t//\//_}_s$s --algo implicit_gemm_coopmat --tile $t/s$s; done
done
f wino_f2 --algo winograd --tile 2x2
f auto2
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
