# Session 20, call 3: halo_coopmat's strip width.  The kernel takes the widest strip whose halo
# fits shared memory; a strip TQ columns wide stages HP = BM + (R-1)*X + S-1 halo pixels per BM
# flat positions (X = TQ + S-1), so wide strips re-stage up to 5x the pixels a tile multiplies.
# Forced strips (/q<TQ>), every row checked: the one-column tiles on the SD-VAE RGB layer (l7, b1),
# the router's tiles on the halo layers it takes (SD-VAE l5 and VGG-16 features.7, RetinaNet
# cls_out_50 at b1; VGG-16 features.2 and RetinaNet box_out_100 at b32), fp16 NHWC.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 200 '*HaloCoopmat*'
D=docs/results/h200_s20/strip
sweep() {  # sweep CSV BATCH TILE Q...: '' = the kernel's own strip
  local csv=$1 b=$2 t=$3; shift 3
  for q in "" "$@"; do
    local tile=$t${q:+/q$q} name=$(basename $csv .csv)_b${b}_$(echo $t | tr / _)${q:+_q$q}
    RUN_TIMEOUT=40 run_build new --shapes $D/$csv --batch $b --dtype fp16 --layout nhwc --algo halo_coopmat --tile $tile \
      --check --json "$OUT/$name.json" > "$OUT/$name.txt" 2>&1
    echo "$name exit $? $(grep -E '^[a-z0-9_]+ +[a-z0-9_.]+ +[0-9]+ fp16 ' "$OUT/$name.txt" | awk '{print $7, $12}') $(grep -o 'q[0-9]* vec' "$OUT/$name.txt" | head -1)"
  done
}
for t in 512x16/8x1 256x16/4x1 512x16/16x1 768x16/12x1; do sweep l7.csv 1 $t 128 86 64 52 43 32 22 16; done
sweep l5.csv 1 256x64/4x1 64 52 43 32 22 16
sweep f7.csv 1 256x64/4x1 38 28 23 16
sweep cls50.csv 1 256x64/4x1 25 17 13
sweep f2.csv 32 256x64/4x1 56 45 32 28 16
sweep box100.csv 32 256x64/4x1 34 25 20 17
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
