# Session 31, call 8 (call 7 ran the same and stopped at pipeline 316, where nvdisasm printed a byte
# that was not UTF-8; bench/nv_sass.py now replaces such bytes and runs one nvdisasm per core): the machine code of every pipeline variant of every algorithm (the whole
# compile lab with --isa), looked over by bench/nv_sass.py: registers, local memory (LDL/STL),
# the instruction mix and the hottest loop's.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
ND=$(which nvdisasm || ls /usr/local/cuda*/bin/nvdisasm | head -1)
say "compile lab"
VKCONV_CACHE_DIR=none timeout 420 $C/bin/vkconv-bench --shader-stats --isa $OUT/isa --json $OUT/stats.json > $OUT/stats.txt 2>&1
echo "exit $?"; tail -3 $OUT/stats.txt; ls $OUT/isa | grep -c _pipeline_cache.bin
say nv_sass
LEFT=$(( 580 - ($(date +%s) - T0) ))
timeout $LEFT python3 bench/nv_sass.py $OUT/isa --nvdisasm "$ND" --out $OUT/sass --json $OUT/mix.json > $OUT/nv_sass.txt 2>&1
echo "exit $?"; grep -c "regs" $OUT/nv_sass.txt; grep -E "local memory|FAILED" $OUT/nv_sass.txt | head
du -sh $OUT/sass $OUT/isa
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && tar cJf sass.tar.xz sass && rm -rf sass isa && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la)
