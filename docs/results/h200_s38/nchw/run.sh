# Session 38, call 7: interior patches read unchecked in the other input transforms (loadPatch:
# NCHW, and NHWC without pairs), fp32 NCHW (the scalar GEMM's winograd) and fp16 NCHW b1, against
# the build before the session's transform changes (615bd35, .carry/old: for these layouts the
# only difference).  Call 4's layers, router, checked, --passes, alternating new / old twice.
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/old/bin/*.xz .carry/old/lib/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s38/xmode
run() { RUN_TIMEOUT=120 bench_checked "$@"; }
for p in 1 2; do for v in new old; do
  run $v fp32_b32_${v}_$p --shapes $D/b32.csv --batch 32 --dtype fp32 --layout nchw --passes
  run $v fp32_b1_${v}_$p --shapes $D/b1.csv --batch 1 --dtype fp32 --layout nchw --passes
  run $v fp16_b1_${v}_$p --shapes $D/b1.csv --shapes $D/b32.csv --batch 1 --dtype fp16 --layout nchw --passes
done; done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
