# Session 40, call 1: winograd's NCHW output transform rebuilt (one barrier, tiles-fastest m-wide
# row stores, the tile decoded once per invocation; perf-notes 111) against the build before it
# (409684f, "old"), on every 3x3 stride-1 layer of the suites (the session 39 sweep's lists) with
# winograd forced (the heuristic's F(m)), per-pass times (--passes), every row checked: fp16 NCHW
# b32 old/new, b1 old/new twice; fp16 NHWC new (the NHWC output pass beside it); fp32 NCHW b1
# old/new.  No validation layer (it does not fit the 64 MiB beside two builds).
T0=$(date +%s)
for f in .carry/bin/*.xz .carry/lib/*.xz .carry/old/*.xz .carry/old/*/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
D=docs/results/h200_s40/nchwout
W="--algo winograd --passes"
run() { RUN_TIMEOUT=150 bench_checked "$@"; }
for v in old new; do run $v b32_nchw_$v --shapes $D/wino3x3_b32.csv --batch 32 --dtype fp16 --layout nchw $W; done
run new b32_nhwc_new --shapes $D/wino3x3_b32.csv --batch 32 --dtype fp16 --layout nhwc $W
for r in 1 2; do
  for v in old new; do run $v b1_nchw_${v}$r --shapes $D/wino3x3_b1.csv --batch 1 --dtype fp16 --layout nchw $W; done
done
run new b1_nhwc_new --shapes $D/wino3x3_b1.csv --batch 1 --dtype fp16 --layout nhwc $W
for v in old new; do run $v b1_fp32_nchw_$v --shapes $D/wino3x3_b1.csv --batch 1 --dtype fp32 --layout nchw $W; done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt && rm -f *.json *.txt; ls -la | head)
