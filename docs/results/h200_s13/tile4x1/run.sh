# Session 13, call 8: (a) the coopmat tile 256x64x32/4x1s1 (64x64 per subgroup, four subgroups)
# forced on the fp16 NHWC b32 suites, next to the router in the same call; its tests, validation
# on; (b) bf16 NHWC suites at b1 and b32 with cuDNN (the README's bf16 columns; the router as
# shipped: the new tile is not in it).
# Packed with scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 150 '*CoopmatTiles*4x1s1*:*FewChannelsCoopmatRouting*'
for v in auto 256x64x32/4x1s1; do
  n=$(echo "$v" | tr '/' '_'); a="--algo implicit_gemm_coopmat --tile $v"; [ "$v" = auto ] && a=
  $B $B32 --batch 32 --dtype fp16 --layout nhwc $a --check --json "$OUT/b32_$n.json" > "$OUT/b32_$n.txt" 2>&1
  echo "$v exit $?"; sed -n '/== Summary/,$p' "$OUT/b32_$n.txt" | sed -n 3,6p | cut -c1-100
done
bench_pair bf16 nhwc 1 32 | grep -vE "^\[" | tail -9
(cd "$OUT" && tar czf results-tile4x1.tgz *.json *.txt *.err tests.log; rm -f *.json *.txt *.err tests.log results-none.tgz; ls)
