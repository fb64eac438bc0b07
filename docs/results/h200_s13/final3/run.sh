# Session 13, call 7 (the README's fp16 numbers): few_channels_coopmat with 32-column, 4-accumulator
# subgroup blocks, up to 4 row steps and the next step's halo prefetched (the tile rules after the
# sweep of call 6).  (a) tests through it, the coopmat kernel and the first-layer kernels,
# validation on; (b) first layers fp16 NHWC b32 and b1, router, old build (b715b6b) against new,
# alternating; (c) fp16 NHWC suites at b1 and b32 with cuDNN in this call.
# Packed with OLD_BUILD=<b715b6b build> scripts/device_pack.sh build-dev; run as OUT=... bash .carry/run.sh
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
tests_validated tests.log 150 '*coopmat*:*FewChannels*'
F="--shapes docs/results/h200_s12/few/first_layers.csv --check --dtype fp16 --layout nhwc"
for b in 32 1; do for v in old new old new; do
  run_build $v $F --batch $b --json "$OUT/first_b${b}_$v.json" > "$OUT/first_b${b}_$v.txt" 2>&1
  echo "b$b $v exit $? $(grep -E '^(resnet50|vgg16|mobilenet_v2|sd_vae|rdna1)' "$OUT/first_b${b}_$v.txt" | awk '{printf "%s=%s ", $2, $7}')"
done; done
bench_pair fp16 nhwc 1 32 | grep -vE "^\[" | tail -9
(cd "$OUT" && tar czf results-final3.tgz *.json *.txt *.err tests.log; rm -f *.json *.txt *.err tests.log results-none.tgz; ls)
