# Session 18, call 9: after the router mend (haloCoopmatPaysCost: the same decision computed once):
# the halo, coopmat-shape and routers' tests with the validation layer, and fp16 NHWC b1 on all six
# suites and b32 on the four through the router, every row --check'ed, to compare with call 7
# (tiles2/fp16_b{1,32}_new.json): the same algorithm and configuration on every layer.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 150 '*HaloCoopmat*:coopmat/CoopmatShapes.*:*Routing*:*Router*'
ALL="$B32 --suite sd_vae_decoder --suite rdna1_matrix"
RUN_TIMEOUT=100 bench_checked new fp16_b1 $ALL --batch 1 --dtype fp16 --layout nhwc
RUN_TIMEOUT=100 bench_checked new fp16_b32 $B32 --batch 32 --dtype fp16 --layout nhwc
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
