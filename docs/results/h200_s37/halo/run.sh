# Session 37, call 13: halo_coopmat under 32 KiB (perf-notes 102: from 32 KiB declared a workgroup
# has its SM to itself).  The router's 256x64/4x1 declares ~46 KiB; 256x32/4x1 (half the filters
# per workgroup) in strips narrow enough to stay under 32 KiB may share an SM with a second one.
# fp16 NHWC b32, forced, checked: the router, then halo 256x64/4x1 (its own strip), 256x32/4x1 at
# its own strip and at q56 / q28, and NVIDIA's register counts.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
L=docs/results/h200_s37/halo/layers.csv
run() { RUN_TIMEOUT=90 bench_checked new "$@"; }
run auto --shapes $L --batch 32 --dtype fp16 --layout nhwc
for t in 256x64/4x1 256x32/4x1 256x32/4x1/q56 256x32/4x1/q28 256x64/4x1/q28; do
  run halo_${t//\//_} --shapes $L --batch 32 --dtype fp16 --layout nhwc --algo halo_coopmat --tile $t
done
timeout 60 $C/bin/vkconv-bench --shader-stats --algo halo_coopmat > $OUT/stats.txt 2>&1
grep -E "halo_coopmat_f16 " $OUT/stats.txt | grep -E "256x32|256x64/4x1" | cut -c1-200 | head -6
grep -h "halo_coopmat" $OUT/halo_*.txt | awk '{print $2, $NF}' | head -0
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la)
