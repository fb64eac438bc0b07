# Session 31, call 1: NVIDIA's machine code of the matrix kernels.  The compile lab builds the
# router's main tiles with --isa, which now also writes each pipeline alone in a VkPipelineCache
# of its own; bench/nv_sass.py finds the driver's microcode object in it and disassembles it with
# this machine's nvdisasm.  The driver's own disk cache is kept too, in case the blob holds none.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export __GL_SHADER_DISK_CACHE_PATH=$OUT/glc __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1
which nvdisasm cuobjdump; nvdisasm --version | tail -1; ls /usr/local/cuda*/bin/nvdisasm 2>/dev/null
ND=$(which nvdisasm || ls /usr/local/cuda*/bin/nvdisasm | head -1)
n=0
for spec in "implicit_gemm_coopmat 192x128x64/4x4s1" "implicit_gemm_coopmat 128x256x32/2x4s1" "halo_coopmat 256x64/4x1"; do
  set -- $spec; n=$((n+1))
  say "shader-stats $1 $2"
  timeout 150 $C/bin/vkconv-bench --shader-stats --algo $1 --tile $2 --isa $OUT/isa$n --json $OUT/stats$n.json > $OUT/stats$n.txt 2>&1
  echo "exit $?"; tail -3 $OUT/stats$n.txt; ls $OUT/isa$n | head -4; ls $OUT/isa$n | wc -l
done
say nv_sass
timeout 200 python3 bench/nv_sass.py $OUT/isa1 $OUT/isa2 $OUT/isa3 --nvdisasm "$ND" --out $OUT/sass --json $OUT/mix.json > $OUT/nv_sass.txt 2>&1
echo "exit $?"; head -c 3000 $OUT/nv_sass.txt
find $OUT/glc -type f | head; du -sh $OUT/glc $OUT/isa* $OUT/sass
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && tar cJf isa.tar.xz isa1 isa2 isa3 glc && tar cJf sass.tar.xz sass && rm -rf isa1 isa2 isa3 glc sass && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la)
# As run, the last line's first tar failed (the driver wrote no disk cache under $OUT/glc: the
# blobs alone hold the code), so sass/ did not come back; isa.tar.xz did, and sass.tar.xz here is
# nvdisasm 12.4 (Debian's nvidia-cuda-toolkit, on the dev machine) run over those blobs:
#   python3 bench/nv_sass.py isa1 isa2 isa3 --nvdisasm .../nvdisasm --json mix.json
# It holds the main kernels' disassembly, mix.json / nv_sass.txt and the compile lab's statistics.
