# Session 60, call 2 (the same warm H100 as call 1): the test groups call 1's 150 s did not
# reach, with the validation layer: winograd on the matrix units, sliced-K and pointwise
# kernels, split-K, and the rest of the seeded random sweep.
# Call 3 (same machine): T2=240 F2='winograd_coopmat/*:coopmat/SlicedKCoopmatTiles.*', the two groups call 2 did not reach.
source scripts/device_run.sh none > /dev/null 2>&1
tests_validated tests2.log ${T2:-330} "${F2:-winograd_coopmat/*:coopmat/SlicedKCoopmatTiles.*:coopmat/PointwiseCoopmatTiles.*:splitk/*:Random/Sweep.*:packed/*}"
(cd "$OUT" && xz -9 -f tests2.log; rm -f *.csv; ls -la | head)
