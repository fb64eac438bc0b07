# Session 19, call 6: the coopmat GEMM's time per tile against its reduction length (item 47's
# ~5 us per tile outside the slice loop): winograd-like grouped 1x1 problems (36 groups, 6784
# "pixels", 256 filters per group) with C/groups = 32 ... 2048, and 128 / 512 filters per group at
# 256, under the two tiles winograd's GEMMs use, forced, one pass, every row --check'ed.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s19/ksweep
F="--shapes $D/kgemm.csv --batch 1 --dtype fp16 --layout nhwc --algo implicit_gemm_coopmat"
for t in 128x256x32/2x4s1 192x128x64/4x4s1 128x128x64/2x4s1; do
  RUN_TIMEOUT=100 bench_checked new k_$(echo $t | tr '/' '_') $F --tile $t/s1
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
