# Session 22, call 3: why the serial reduction lost (call 2, serial/): a profiling build whose
# VKCONV_SPLIT_ABLATE removes its parts (1: the last arrival reads no partials, 2: no arrival at all;
# both rows unchecked, their outputs are wrong) and whose VKCONV_SPLIT_COUNTERS=device puts the
# arrival counters in device-local memory zeroed by a fill (the build prints the memory type it took).
# 64x64x32/2x2 at 2, 8 and 16 splits on three b1 layers, fp16 NHWC.  Call 4 (results2.tgz) adds
# VKCONV_SPLIT_ABLATE=3: the partials read through a view without `coherent` (checked rows).
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s22/probe
S="--shapes $D/three_b1.csv --batch 1 --dtype fp16 --layout nhwc --warmup-ms 100 --algo implicit_gemm_coopmat"
for s in 2 8 16; do
  T="--tile 64x64x32/2x2/s$s"
  RUN_TIMEOUT=60 bench_checked new pass_s$s $S $T --split-reduce pass | head -1
  RUN_TIMEOUT=60 bench_checked new serial_s$s $S $T | head -1
  VKCONV_SPLIT_COUNTERS=device RUN_TIMEOUT=60 bench_checked new serialdev_s$s $S $T | head -1
  grep -m1 owned $OUT/serialdev_s$s.txt; grep -m1 owned $OUT/serial_s$s.txt
  VKCONV_SPLIT_ABLATE=3 RUN_TIMEOUT=60 bench_checked new ncoh_s$s $S $T | head -1
  for a in 1 2; do
    say abl${a}_s$s; VKCONV_SPLIT_ABLATE=$a RUN_TIMEOUT=60 run_build new $S $T --json $OUT/abl${a}_s$s.json > $OUT/abl${a}_s$s.txt 2>&1; echo "exit $?"
  done
done
python3 - "$OUT" <<'PY'
import json, sys, glob, os
rows = {}
for f in sorted(glob.glob(sys.argv[1] + '/*.json')):
    n = os.path.basename(f)[:-5]
    for r in json.load(open(f))['rows']: rows.setdefault(r['layer'], {})[n] = r['us']
for layer, d in rows.items(): print(layer, ' '.join(f'{k}={v:.1f}' for k, v in sorted(d.items())))
PY
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
