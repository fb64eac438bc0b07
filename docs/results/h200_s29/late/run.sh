# Session 29, call 1: implicit_gemm_coopmat's last matrix step of a slice multiplied from
# fragments held across the barrier that frees the staging buffer (the shader's LATE,
# VKCONV_COOPMAT_LATE=0|1|2; perf-notes 71).  One binary:
#  - NVIDIA's registers and code size of the two big tiles under each mode (--shader-stats --tile);
#  - the coopmat tile tests under LATE=1 and LATE=2 on the matrix units (validation layer on);
#  - the router's plans (unchanged by LATE), fp16 NHWC: VGG-16 + RetinaNet head at b32 with
#    LATE 0, 1, 2, 0 alternating; SD-VAE at b1 with 0, 1, 2.
# Every bench row checked against the float64 reference.
T0=$(date +%s)
for f in .carry/bin/*.xz; do [ -f $f ] && xz -d $f; done
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
say stats
for L in 0 1 2; do for T in 192x128x64/4x4s1 128x256x32/2x4s1 64x64x64/2x4; do
  VKCONV_COOPMAT_LATE=$L timeout 60 $C/bin/vkconv-bench --shader-stats --algo implicit_gemm_coopmat --tile $T > "$OUT/stats_L${L}_${T//\//_}.txt" 2>&1
  echo "LATE=$L $T exit $?"; grep -E "^[0-9]+ +implicit_gemm_coopmat +implicit_gemm_coopmat_f16" "$OUT/stats_L${L}_${T//\//_}.txt" | head -3 | cut -c1-200
done; done
for L in 1 2; do
  VKCONV_COOPMAT_LATE=$L tests_validated tests_L$L.log 120 'coopmat*/CoopmatTiles.*:coopmat/CoopmatNhwcTiles.*'
done
A="--dtype fp16 --layout nhwc"
for L in 0 1 2 0; do
  VKCONV_COOPMAT_LATE=$L RUN_TIMEOUT=100 bench_checked new vr_L$L$([ -f "$OUT/vr_L$L.json" ] && echo b) --suite vgg16 --suite retinanet_head --batch 32 $A
done
for L in 0 1 2; do
  VKCONV_COOPMAT_LATE=$L RUN_TIMEOUT=60 bench_checked new sd_L$L --suite sd_vae_decoder --batch 1 $A
done
echo "elapsed $(( $(date +%s) - T0 )) s"
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.log && rm -f *.json *.txt *.log; ls)
