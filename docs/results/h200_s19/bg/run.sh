# Session 19, call 1: halo_coopmat with B fragments straight from the filter buffer and the halo
# double-buffered (B_GLOBAL, forced by VKCONV_HALO_BGLOBAL=1) against the staged filters (=0), same
# build, same call.  Tests with the validation layer at B_GLOBAL; compile statistics; the stride-1
# multi-tap layers of ../../h200_s18/sweep at b32 and b1, fp16 NHWC, forced tiles, every row --check'ed.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s18/sweep
VKCONV_HALO_BGLOBAL=1 tests_validated tests.log 120 '*HaloCoopmat*'
say stats
VKCONV_HALO_BGLOBAL=1 timeout 60 $C/bin/vkconv-bench --shader-stats --algo halo_coopmat > "$OUT/stats.txt" 2>&1; echo "exit $?"
grep halo_coopmat_f16 "$OUT/stats.txt" | awk '{print $5, $8, $(NF-2), $(NF-1), $NF}' | head -12
F="--dtype fp16 --layout nhwc --algo halo_coopmat"
for t in 256x64/4x1 128x64/2x2; do
  for bg in 0 1; do
    VKCONV_HALO_BGLOBAL=$bg RUN_TIMEOUT=80 bench_checked new b32_$(echo $t | tr '/' '_')_bg$bg --shapes $D/halo_b32.csv --batch 32 $F --tile $t
  done
done
VKCONV_HALO_BGLOBAL=1 RUN_TIMEOUT=80 bench_checked new b32_256x64_4x2_bg1 --shapes $D/halo_b32.csv --batch 32 $F --tile 256x64/4x2
for t in 256x64/4x1 128x64/2x2; do
  for bg in 0 1; do
    VKCONV_HALO_BGLOBAL=$bg RUN_TIMEOUT=50 bench_checked new b1_$(echo $t | tr '/' '_')_bg$bg --shapes $D/halo_layers.csv --batch 1 $F --tile $t
  done
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
