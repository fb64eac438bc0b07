# Session 44, call 3: the library at HEAD (session 43's per-tile groups; the scaled-range test's
# sharper "spread" data): the winograd, packed-filter, rounding and depthwise bf16 tests with the
# validation layer on the H200.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
tests_validated tests.log 300 '*inograd*:*acked*:*Bf16StoresRoundToNearestEven*:*epthwise*bf16*:*bf16*__depthwise*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.xz && rm -f *.xz; ls -la | head)
