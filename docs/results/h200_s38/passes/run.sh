# Session 38, call 2: where each multi-pass plan's time goes, pass by pass (vkconv-bench --passes:
# a timestamp after every dispatch of one more batch).  fp16 NHWC, router, checked: the b32
# suites and SD-VAE at b1 (perf-notes 104).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
run() { RUN_TIMEOUT=200 bench_checked new "$@"; }
run b32 $B32 --batch 32 --dtype fp16 --layout nhwc --passes
run b1 --suite sd_vae_decoder --suite vgg16 --suite retinanet_head --batch 1 --dtype fp16 --layout nhwc --passes
$C/bin/vkconv-bench --peak > $OUT/peak.txt 2>&1; grep -iE "copy|fill|cache" $OUT/peak.txt | head
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
