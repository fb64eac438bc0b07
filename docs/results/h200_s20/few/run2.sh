# Session 20, call 2: halo_coopmat with one 16-filter fragment column (tiles 256x16/4x1,
# 128x16/4x1, 512x16/8x1) on the SD-VAE decoder's RGB output layer (128 -> 3 channels, 3x3,
# 512x512), against the router's direct_few_filters and the 64-wide halo tile; fp16 and bf16
# NHWC at batch 1, every row checked.  Halo tests with the validation layer first.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 200 '*HaloCoopmat*:*Router*:*Routing*'
L7="--shapes docs/results/h200_s20/few/l7.csv --batch 1 --layout nhwc"
for dt in fp16 bf16; do
  RUN_TIMEOUT=60 bench_checked new ${dt}_auto $L7 --dtype $dt
  for t in 256x16/4x1 128x16/4x1 512x16/8x1 256x64/4x1; do
    RUN_TIMEOUT=60 bench_checked new ${dt}_$(echo $t | tr / _) $L7 --dtype $dt --algo halo_coopmat --tile $t
  done
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
