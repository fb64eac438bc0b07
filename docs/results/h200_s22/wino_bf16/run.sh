# Session 22, call 9: winograd for bf16 on the matrix units, forced (the router never takes it for
# bf16: F(4x4)'s errors).  The 3x3 stride-1 layers of the SD-VAE decoder and the RetinaNet head at
# b1 (wino_b1.csv), bf16 NHWC: F(2x2) and F(4x4) forced against the router's direct kernels; fp16
# F(4x4) (what the router runs there) for reference.  Every row checked; max_rel_err per row in the
# JSON is what decides.  Build: main at 50b3f3f.
source scripts/device_run.sh none > /dev/null 2>&1
export VKCONV_SUITES_DIR=$PWD/bench/suites
D=docs/results/h200_s22/wino_bf16
F="--shapes $D/wino_b1.csv --batch 1 --layout nhwc --warmup-ms 100"
RUN_TIMEOUT=120 bench_checked new bf16_auto $F --dtype bf16 | head -3
RUN_TIMEOUT=120 bench_checked new bf16_f2 $F --dtype bf16 --algo winograd --tile 2x2 | head -3
RUN_TIMEOUT=120 bench_checked new bf16_f4 $F --dtype bf16 --algo winograd --tile 4x4 | head -3
RUN_TIMEOUT=120 bench_checked new fp16_auto $F --dtype fp16 | head -3
RUN_TIMEOUT=120 bench_checked new fp16_f2 $F --dtype fp16 --algo winograd --tile 2x2 | head -3
python3 - "$OUT" <<'PY'
import json, sys
rows = {}
for n in ['bf16_auto', 'bf16_f2', 'bf16_f4', 'fp16_auto', 'fp16_f2']:
    for r in json.load(open(f'{sys.argv[1]}/{n}.json'))['rows']:
        rows.setdefault((r['suite'], r['layer']), {})[n] = (r['us'], r['max_rel_err'], r['algo'][:8])
for k, d in rows.items():
    print(k[1], ' '.join(f"{n}={v[0]:.1f}us/err{v[1]:.2e}/{v[2]}" for n, v in d.items() if v[0] is not None))
PY
(cd "$OUT" && shopt -s nullglob && tar czf results.tgz *.json *.txt *.err *.log *.csv && rm -f *.json *.txt *.err *.log *.csv; ls)
