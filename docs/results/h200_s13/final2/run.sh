# Session 13, call 3 (the README's fp16 numbers): the router sends 16-bit first layers to
# few_channels_coopmat from 2^21 outputs (C/groups <= 4; any size at 5-8), direct_few_channels
# below.  (a) routing tests, validation on; (b) first layers fp16 NHWC b1, router; (c) fp16 NHWC
# suites at b1 and b32 with cuDNN in this call.
# Packed with scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 100 '*FewChannelsCoopmatRouting*:*FewChannelsRouting*:*FewChannelsCoopmatTiles*heuristic'
timeout 100 $B --shapes docs/results/h200_s12/few/first_layers.csv --check --dtype fp16 --layout nhwc --batch 1 \
  --json "$OUT/first_b1_auto.json" > "$OUT/first_b1_auto.txt" 2>&1; echo "first b1 exit $?"
grep -E "^(resnet50|vgg16|mobilenet_v2|sd_vae|rdna1)" "$OUT/first_b1_auto.txt" | awk '{printf "%s=%s %s\n", $2, $7, $17}'
bench_pair fp16 nhwc 1 32 | grep -vE "^\[" | tail -16
(cd "$OUT" && tar czf results-final2.tgz *.json *.txt *.log *.err && rm -f *.json *.txt *.log *.err; ls)
