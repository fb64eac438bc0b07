# Session 18, call 1: halo_coopmat (first H200 run).  Its tests with the validation layer; the
# compile statistics of its pipelines; then every stride-1 multi-tap layer of the suites
# (halo_layers.csv: 40 layers, C % 16 == 0) in fp16 NHWC at b32 (the four b32 suites' 27) and b1
# (all 40): the router without it (auto, VKCONV_HALO_COOPMAT=0), halo_coopmat with the heuristic's tile and with each tile
# forced, strip widths forced on b32; every row --check'ed.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
S=docs/results/h200_s18/sweep/halo_layers.csv
tests_validated tests.log 200 '*HaloCoopmat*:coopmat/CoopmatShapes.*'
say stats
timeout 60 $C/bin/vkconv-bench --shader-stats --algo halo_coopmat > "$OUT/stats.txt" 2>&1; echo "exit $?"
grep -iE "register|spill|local|shared" "$OUT/stats.txt" | sort | uniq -c | head -20
for b in 32 1; do
  VKCONV_HALO_COOPMAT=0 RUN_TIMEOUT=120 bench_checked new auto_b$b --shapes $S --batch $b --dtype fp16 --layout nhwc
  for t in "" 256x64/4x2 128x64/2x2 256x32/4x1 64x64/1x2; do
    n=halo_b${b}_$(echo "${t:-heur}" | tr '/' '_')
    RUN_TIMEOUT=120 bench_checked new $n --shapes $S --batch $b --dtype fp16 --layout nhwc --algo halo_coopmat ${t:+--tile $t}
  done
done
for t in 256x64/4x2/q32 256x64/4x2/q16; do
  RUN_TIMEOUT=100 bench_checked new halo_b32_$(echo $t | tr '/' '_') --shapes $S --batch 32 --dtype fp16 --layout nhwc --algo halo_coopmat --tile $t
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
