# As run in call 2 (results-first.tgz).  Its "restaged" rows recomputed each staged word inside the
# loop (a division and a modulo per word), so they timed that integer work, not the stores: see run.sh.
# Session 37, call 2: the shared-memory-fed matrix probe with the single-buffered kernels' slice
# structure (`--peak` rows "each restaged between two barriers": a barrier, every invocation
# rewrites its share of the staged tile, a second barrier) and with one workgroup per compute unit
# (does a second resident workgroup fill a barrier's wait?); a 128x128x32/2x4 shape (the
# double-buffered tile's subgroups).  Three runs of --peak (clock settling, repeatability).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
for i in 1 2 3; do
  say "peak $i"
  timeout 150 $C/bin/vkconv-bench --peak > $OUT/peak$i.txt 2> $OUT/peak$i.err
  echo "exit $?"
done
grep -E "coopmat" $OUT/peak3.txt | sed 's/ (best.*check/ check/' | cut -c1-220
timeout 120 $C/bin/vkconv-bench --shader-stats --algo direct > $OUT/stats.txt 2>&1; echo "stats exit $?"; grep peak_cm_smem $OUT/stats.txt
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && tar czf results.tgz *.txt *.err && rm -f *.txt *.err; ls -la)
