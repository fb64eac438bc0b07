# Session 39, call 8: winograd's NCHW output transform with 16 filters per block on 16-bit M (a
# block's M reads fill whole 32-byte sectors; perf-notes 110) against 8, same build
# (VKCONV_WINOGRAD_NCHW_CK8=1 / unset), alternating twice: fp16 NCHW on the winograd layers of
# ab/ (b32 and b1), checked.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s39/ab
for r in 1 2; do
  for v in ck8 ck16; do
    e=; [ $v = ck8 ] && e=1
    VKCONV_WINOGRAD_NCHW_CK8=$e RUN_TIMEOUT=120 bench_checked new b32_${v}_$r --shapes $D/wino_b32.csv --batch 32 --dtype fp16 --layout nchw
    VKCONV_WINOGRAD_NCHW_CK8=$e RUN_TIMEOUT=90 bench_checked new b1_${v}_$r --shapes $D/wino_b1.csv --batch 1 --dtype fp16 --layout nchw
  done
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
