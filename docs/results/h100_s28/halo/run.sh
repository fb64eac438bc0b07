# Session 28, call 5: halo_coopmat's fp16 NCHW strips padded to 8 columns (perf-notes item 70):
# one binary, the unpadded strips by VKCONV_HALO_ALIGN=0:
#  - the halo tests, validation layer on;
#  - halo_nchw.csv (the layers whose plan changes: VGG-16 features.2 / .7 / .10, SD-VAE l7),
#    new / old / new;
#  - fp16 NCHW VGG-16 b1 + b32 and SD-VAE b1, new, with cuDNN fp16 NCHW on the same rows.
# Every vkconv row checked against the float64 reference.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 60 '*HaloCoopmat*:*halo_coopmat*'
H="--shapes docs/results/h100_s28/halo/halo_nchw.csv --dtype fp16 --layout nchw"
RUN_TIMEOUT=45 bench_checked new h_new $H
VKCONV_HALO_ALIGN=0 RUN_TIMEOUT=45 bench_checked new h_old $H
RUN_TIMEOUT=40 bench_checked new h_new2 $H
LEFT=$(( 190 - ($(date +%s) - T0) ))
[ $LEFT -gt 30 ] && RUN_TIMEOUT=$LEFT bench_checked new vgg_sd --suite vgg16 --batch 1 --batch 32 --dtype fp16 --layout nchw
LEFT=$(( 235 - ($(date +%s) - T0) ))
[ $LEFT -gt 15 ] && timeout $LEFT python3 bench/torch_baseline.py --suite vgg16 --config fp16_nchw --batch 1 --batch 32 --json "$OUT/cudnn_vgg.json" > "$OUT/cudnn_vgg.txt" 2> "$OUT/cudnn_vgg.err"; echo "exit $?"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log && rm -f *.json *.txt *.err *.log; ls)
