# Session 26, call 3: few_channels_coopmat without the small-grid row halving (calls 1-2 found it
# slower wherever it applied).
#  - A/B on the eight plans it moves (SD-VAE l0 at b1, RDNA1 size_32 at b32; fp16/bf16, NHWC/NCHW):
#    the old plan's tile forced (old) against the router (new), alternating twice;
#  - the router's 2^21-output threshold below which first layers (C/groups <= 4) stay on
#    direct_few_channels, refitted on the suites' first layers with few_channels_coopmat forced, b1;
#  - the ggml cases (auto) once more beside cuDNN's from call 2.
# Every vkconv row checked.
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
row() { grep -E "^(ggml_perf|sd_vae|rdna1|resnet|mobilenet|vgg)" | sed 's/  */ /g' | cut -d' ' -f1,2,3,4,5,7,12-; }
S=bench/suites
head -1 $S/sd_vae_decoder.csv > /tmp/l0.csv; grep ",l0," $S/sd_vae_decoder.csv >> /tmp/l0.csv
head -1 $S/rdna1_matrix.csv > /tmp/s32.csv; grep ",size_32," $S/rdna1_matrix.csv >> /tmp/s32.csv
head -1 $S/resnet50.csv > /tmp/first.csv
for f in $S/resnet50.csv $S/vgg16.csv $S/mobilenet_v2.csv $S/rdna1_matrix.csv $S/sd_vae_decoder.csv; do
  awk -F, 'NR>1 && $4/$16<=4 && $7/$16>=16' $f >> /tmp/first.csv
done
cat /tmp/first.csv
say "A/B moved plans"
for i in 1 2; do
  for dt in fp16 bf16; do for l in nhwc nchw; do
    timeout 30 $B --shapes /tmp/l0.csv --batch 1 --dtype $dt --layout $l --algo few_channels_coopmat --tile 2x32x64/1x2 --check --json "$OUT/ab_old_l0_${dt}_${l}_$i.json" 2>&1 | row
    timeout 30 $B --shapes /tmp/l0.csv --batch 1 --dtype $dt --layout $l --check --json "$OUT/ab_new_l0_${dt}_${l}_$i.json" 2>&1 | row
    timeout 30 $B --shapes /tmp/s32.csv --batch 32 --dtype $dt --layout $l --algo few_channels_coopmat --tile 2x32x64/1x2 --check --json "$OUT/ab_old_s32_${dt}_${l}_$i.json" 2>&1 | row
    timeout 30 $B --shapes /tmp/s32.csv --batch 32 --dtype $dt --layout $l --check --json "$OUT/ab_new_s32_${dt}_${l}_$i.json" 2>&1 | row
  done; done
done
say "first layers b1: router vs few_channels_coopmat forced"
for dt in fp16 bf16; do
  RUN_TIMEOUT=60 bench_checked new first_auto_$dt --shapes /tmp/first.csv --batch 1 --dtype $dt --layout nhwc
  RUN_TIMEOUT=60 bench_checked new first_fccm_$dt --shapes /tmp/first.csv --batch 1 --dtype $dt --layout nhwc --algo few_channels_coopmat
  RUN_TIMEOUT=60 bench_checked new first_dfc_$dt --shapes /tmp/first.csv --batch 1 --dtype $dt --layout nhwc --algo direct_few_channels
done
for f in first_auto_fp16 first_fccm_fp16 first_dfc_fp16 first_auto_bf16 first_fccm_bf16 first_dfc_bf16; do echo "-- $f"; row < "$OUT/$f.txt"; done
RUN_TIMEOUT=90 bench_checked new ggml_16 --shapes bench/cases/ggml_perf.csv --dtype fp16 --dtype bf16 --layout nhwc
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log && rm -f *.json *.txt *.err *.log; ls)
