# Session 20, call 8: the one-column tiles' ~16-column strips (9761e79) on the other few-filter
# shapes: halo_coopmat forced with each one-column tile and strips of 8, 16 (the rule), 32 and 64
# columns on ../few/few_filters.csv, fp16 NHWC b1 and b8, every row checked.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
for t in 768x16/12x1 256x16/4x1; do
  for q in 8 16 32 64; do
    RUN_TIMEOUT=60 bench_checked new few_$(echo $t | tr / _)_q$q --shapes docs/results/h200_s20/few/few_filters.csv --layout nhwc \
      --dtype fp16 --batch 1 --batch 8 --algo halo_coopmat --tile $t/q$q
  done
done
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
