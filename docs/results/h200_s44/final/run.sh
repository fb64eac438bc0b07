# Session 44, call 4: the final build (direct_blocked's filter-tail stores restructured for Mesa
# 26's lavapipe; scaled bf16 winograd weighed against fp16 where bf16 matrix units are missing;
# tests that read the fragment size): the direct_blocked, winograd, coopmat trace and routing,
# scaled-range and rounding tests with the validation layer on the H200.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
tests_validated tests.log 300 '*direct_blocked*:EdgesSubgroup.*:ContextTest.BufferViewOffsetsKeepSentinels:CoopmatTrace.*:CoopmatNhwcRouting.*:WinogradPlan.*:*Bf16StoresRoundToNearestEven*'
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && xz -9 *.log; tar czf results.tgz *.xz && rm -f *.xz; ls -la | head)
