# Session 48, call 4: NVIDIA's machine code of the packed-B tiles beside their staged twins
# (vkconv-bench --shader-stats --isa, bench/nv_sass.py): registers, local memory and the slice
# loop's instruction mix, to read call 3's losses.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
for t in 128x256x32/2x4 128x128x64/2x4 128x128x32/2x2pb 192x128x64/4x4s1; do
  n=$(echo $t | tr '/' '_')
  timeout 150 $C/bin/vkconv-bench --shader-stats --algo implicit_gemm_coopmat --tile $t --isa $OUT/isa_$n > $OUT/stats_$n.txt 2>&1
  echo "$t exit $?"; grep -E "implicit_gemm_coopmat_f16 " $OUT/stats_$n.txt | grep -v "splitk" | cut -c1-140 | head -8
done
python3 bench/nv_sass.py $OUT/isa_* --nvdisasm /usr/local/cuda/bin/nvdisasm --out $OUT/sass --json $OUT/sass.json > $OUT/sass.txt 2>&1
echo "nv_sass exit $?"
grep -iE "f16.*(128x256x32|128x128x64|128x128x32_2x2pb|192x128x64)" $OUT/sass.txt | head -40
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && tar czf results.tgz stats_*.txt sass.txt sass.json sass && rm -rf stats_*.txt sass.txt sass.json sass isa_*; ls -la | head)
