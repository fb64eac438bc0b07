# Session 18, call 2: halo_coopmat with 64x64 subgroup blocks (4x4 accumulators; call 1's 64x32
# blocks load 6 fragments per 8 products and ran at ~250 TFLOP/s at best), with and without the
# next slice in flight.  Tests with the validation layer; compile statistics; the stride-1 multi-tap
# layers (../sweep/halo_b32.csv: the four b32 suites' 27 at b32; ../sweep/halo_layers.csv: all 40
# at b1), fp16 NHWC: the router without halo_coopmat (VKCONV_HALO_COOPMAT=0) and forced tiles,
# every row --check'ed.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s18/sweep
tests_validated tests.log 100 '*HaloCoopmat*'
say stats
timeout 60 $C/bin/vkconv-bench --shader-stats --algo halo_coopmat > "$OUT/stats.txt" 2>&1; echo "exit $?"
grep halo_coopmat_f16 "$OUT/stats.txt" | awk '{print $5, $8, $(NF-2), $(NF-1), $NF}' | head -12
F="--dtype fp16 --layout nhwc"
RUN_TIMEOUT=100 VKCONV_HALO_COOPMAT=0 bench_checked new auto_b32 --shapes $D/halo_b32.csv --batch 32 $F
for t in 256x64/4x1 128x64/2x1 256x64/4x2; do
  RUN_TIMEOUT=100 bench_checked new halo_b32_$(echo $t | tr '/' '_') --shapes $D/halo_b32.csv --batch 32 $F --algo halo_coopmat --tile $t
done
RUN_TIMEOUT=100 VKCONV_HALO_PREFETCH=0 bench_checked new halo_b32_256x64_4x1_nopre --shapes $D/halo_b32.csv --batch 32 $F --algo halo_coopmat --tile 256x64/4x1
RUN_TIMEOUT=60 VKCONV_HALO_COOPMAT=0 bench_checked new auto_b1 --shapes $D/halo_layers.csv --batch 1 $F
for t in 256x64/4x1 128x64/2x1 256x64/4x2; do
  RUN_TIMEOUT=60 bench_checked new halo_b1_$(echo $t | tr '/' '_') --shapes $D/halo_layers.csv --batch 1 $F --algo halo_coopmat --tile $t
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
