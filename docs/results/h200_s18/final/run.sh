# Session 18, call 6: the final build (halo_coopmat's non-NVIDIA staging path, stored as it arrives,
# and the tile order by vendor, after the RDNA3 compile lab found spills): tests with the validation
# layer (halo and coopmat shapes through the router; the halo tests again with the NVIDIA default
# switched off, VKCONV_HALO_PREFETCH=0); fp16 NHWC b32 VGG-16 and RetinaNet through the router
# against call 4 (router/), every row --check'ed.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 150 '*HaloCoopmat*:coopmat/CoopmatShapes.*'
VKCONV_HALO_PREFETCH=0 tests_validated tests_noprefetch.log 100 '*HaloCoopmat*'
RUN_TIMEOUT=100 bench_checked new fp16_b32 --suite vgg16 --suite retinanet_head --batch 32 --dtype fp16 --layout nhwc
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
