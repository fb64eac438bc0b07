#!/usr/bin/env python3
"""The least time each layer could take on this device with the designs vkconv has, against the
times measured: how much of a gap the kernels could still close, and which targets no tuning of
them can reach.

  python3 bench/bounds.py VKCONV.json [--baseline CUDNN.json] [--peaks FILE] [--target BATCH=RATIO]...
                          [--suite NAME]... [--layers N]

VKCONV.json is a vkconv-bench run; its `peaks` (from `vkconv-bench peak` on the same machine,
read back from the peak cache) give the device's constants, or --peaks FILE (another bench JSON,
or the peak cache file itself) does.  --baseline adds a second run of the same rows (cuDNN through
bench/torch_baseline.py, measured on the same machine).  --target 1=0.8 asks, per suite at batch 1,
whether the sum can come under 0.8x the baseline's sum.

The bound of a layer (docs/performance.md, "Floors and ceilings") is the least of its designs, each priced at
the device's measured ceilings with perfect overlap and nothing wasted:
  direct     max(F, FLOPs / G, bytes / BW)
  winograd   F(2x2,3x3) and F(4x4,3x3) on 3x3 stride-1 layers, three dependent passes, each at least
             F: input -> V (bytes), the batched GEMM (max of V + U + M bytes and its FLOPs over G),
             M -> output (bytes); V, U, M in the storage type (fp32 for fp32), the filter transform
             left out (constant weights pack it once)
where F is the call floor (a one-workgroup copy behind the compute barrier: no dependent call costs
less), BW the copy bandwidth, and G the GEMM rate: for 16-bit layers with a reduction the matrix
units take, the best staged slice loop the probe measured (`slice_loop_tflops`: the most a GEMM
that brings its operands in every slice sustains), else the FMA peak of the arithmetic type.  The
model ignores prologues, epilogues, tails, L2 traffic and everything else a real kernel pays, so
measured time over the bound is headroom only in the best case, and a target below the bound is out
of reach for every design priced here.  A fused winograd (transforms inside the GEMM, no V or M in
memory) is not built; its column is max(F, bytes / BW, winograd FLOPs / G), what it could reach if
it ran at the slice loop's rate, for reading only."""
import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchjson  # noqa: E402

SIXTEEN = ("fp16", "bf16")


class Device:
    """The constants of the model, in µs, bytes/µs and FLOP/µs."""

    def __init__(self, call_floor_us, bandwidth_gbs, gemm16_tflops, fma32_tflops, fma16_tflops, gemm16_source):
        self.floor = call_floor_us
        self.bw = bandwidth_gbs * 1e3          # bytes per µs
        self.gemm16 = gemm16_tflops * 1e6      # FLOP per µs
        self.fma32 = fma32_tflops * 1e6
        self.fma16 = fma16_tflops * 1e6
        self.gemm16_source = gemm16_source

    def rate(self, row):
        """FLOP/µs of the unit a layer's GEMM runs on: the matrix units' staged slice loop for 16-bit
        layers whose reduction per group they take (C/groups >= 8), else the FMA peak."""
        if row["dtype"] in SIXTEEN:
            return self.gemm16 if row["c"] // row["groups"] >= 8 else self.fma16
        return self.fma32


def device_from_peaks(peaks, overrides):
    """Device from a bench JSON's `peaks` (or a peak cache's), with --call-floor-us etc. on top."""
    def pick(name, key):
        v = getattr(overrides, name)
        return v if v is not None else peaks.get(key)
    fma16 = pick("fma16_tflops", "fp16_fma_tflops")
    gemm16, source = overrides.gemm16_tflops, "--gemm16-tflops"
    if gemm16 is None and peaks.get("slice_loop_tflops"):
        gemm16, source = peaks["slice_loop_tflops"], peaks.get("slice_loop_probe", "peaks.slice_loop_tflops")
    if gemm16 is None:  # a weaker bound: the matrix units fed from registers
        best = [v for k, v in (peaks.get("coopmat_tflops") or {}).items() if "f16*f16+f32" in k and "bf16" not in k]
        if best:
            gemm16, source = max(best), "coopmat peak (no slice-loop probe: a weaker bound)"
        elif fma16:  # no matrix units: 16-bit layers run on the FMA units
            gemm16, source = fma16, "fp16 FMA (no matrix units)"
    vals = dict(call_floor_us=pick("call_floor_us", "call_floor_us"), bandwidth_gbs=pick("bandwidth_gbs", "bandwidth_gbs"),
                fma32_tflops=pick("fma32_tflops", "fp32_fma_tflops"), fma16_tflops=fma16,
                gemm16_tflops=gemm16)
    missing = [k for k, v in vals.items() if not v]
    if missing:
        raise SystemExit("bounds.py: no " + ", ".join(missing) + " in the peaks (run vkconv-bench peak on that machine "
                         "before the suites, or give --peaks FILE or the flags)")
    return Device(gemm16_source=source, **vals)


def winograd_passes(row, m, dev):
    """The three passes of F(m x m, 3x3) on one layer: (input transform, GEMM, output transform) µs."""
    a = m + 2
    p, q = benchjson.out_hw(row)
    n, c, k = row["n"], row["c"], row["k"]
    e = benchjson.DTYPE_BYTES[row["dtype"]]
    tiles = n * math.ceil(p / m) * math.ceil(q / m)
    v, mm, u = tiles * a * a * c * e, tiles * a * a * k * e, a * a * c * k * e
    x, y = n * c * row["h"] * row["w"] * e, n * k * p * q * e
    gemm_flops = 2 * tiles * a * a * c * k
    return ((x + v) / dev.bw, max((v + u + mm) / dev.bw, gemm_flops / dev.rate(row)), (mm + y) / dev.bw), gemm_flops


def winograd_applies(row):
    return (row["r"] == 3 and row["s"] == 3 and row["stride_h"] == 1 and row["stride_w"] == 1 and row["dil_h"] == 1
            and row["dil_w"] == 1 and row["groups"] == 1)


def layer_bound(row, dev):
    """(bound µs, design, fused-winograd µs) of one row."""
    flops = benchjson.conv_flops(row)
    nbytes = benchjson.conv_bytes(row, row["dtype"])
    best = (max(dev.floor, flops / dev.rate(row), nbytes / dev.bw), "direct")
    fused = best[0]
    if winograd_applies(row):
        for m in (2, 4):
            passes, gemm_flops = winograd_passes(row, m, dev)
            t = sum(max(dev.floor, x) for x in passes)
            if t < best[0]:
                best = (t, f"F({m}x{m})")
            fused = min(fused, max(dev.floor, nbytes / dev.bw, gemm_flops / dev.rate(row)))
    return best[0], best[1], fused


def group_key(r):
    return (r["suite"], r["batch"], r["dtype"], r["layout"])


def parse_targets(items):
    out = {}
    for it in items or []:
        b, _, ratio = it.partition("=")
        try:
            out[int(b)] = float(ratio)
        except ValueError:
            raise SystemExit(f"bounds.py: --target {it!r}: expected BATCH=RATIO, e.g. 32=1.0") from None
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", help="a vkconv-bench JSON")
    ap.add_argument("--baseline", help="another run of the same rows (torch_baseline.py), measured on the same machine")
    ap.add_argument("--peaks", help="a bench JSON or peak cache whose peaks to use (default: the run's own)")
    ap.add_argument("--target", action="append", help="BATCH=RATIO: can each suite's sum at BATCH come under RATIO x the baseline's?")
    ap.add_argument("--suite", action="append")
    ap.add_argument("--layers", type=int, default=15, help="per-layer rows to print, largest headroom first (default 15)")
    for flag in ("call-floor-us", "bandwidth-gbs", "gemm16-tflops", "fma32-tflops", "fma16-tflops"):
        ap.add_argument(f"--{flag}", type=float, help="override the peaks' value")
    a = ap.parse_args(argv)

    run = benchjson.load(a.run)
    peaks = (load_peaks(a.peaks) if a.peaks else run.get("peaks")) or {}
    dev = device_from_peaks(peaks, a)
    targets = parse_targets(a.target)
    base = {}
    if a.baseline:
        for r in benchjson.load(a.baseline)["rows"]:
            k = benchjson.row_key(r)
            if r.get("us") and (k not in base or r["us"] < base[k]["us"]):
                base[k] = r
    fastest = {}  # a run of several algorithms (--algo all) counts each layer's fastest, as report.py does
    for r in run["rows"]:
        if r.get("us") and (not a.suite or r["suite"] in a.suite):
            k = benchjson.row_key(r)
            if k not in fastest or r["us"] < fastest[k]["us"]:
                fastest[k] = r
    rows = list(fastest.values())
    if not rows:
        raise SystemExit("bounds.py: no timed rows")

    print(f"device: {run['device']['name']}; call floor {dev.floor:.3f} us, copy {dev.bw / 1e3:.0f} GB/s, "
          f"16-bit GEMM {dev.gemm16 / 1e6:.4g} TFLOP/s ({dev.gemm16_source}), FMA fp32 {dev.fma32 / 1e6:.4g} / fp16 {dev.fma16 / 1e6:.4g}")
    per_layer, groups = [], {}
    for r in rows:
        bound, design, fused = layer_bound(r, dev)
        b = base.get(benchjson.row_key(r))
        per_layer.append((r, bound, design, fused, b["us"] if b else None))
        g = groups.setdefault(group_key(r), dict(us=0.0, bound=0.0, fused=0.0, base=0.0, nbase=0, n=0))
        g["us"] += r["us"]; g["bound"] += bound; g["fused"] += fused; g["n"] += 1
        if b:
            g["base"] += b["us"]; g["nbase"] += 1

    print(f"\n{'suite':16} {'n':>3} {'dtype':5} {'layout':6} {'layers':>6} {'floors us':>9} {'bound us':>9} {'fused us':>9} "
          f"{'vkconv us':>10} {'x bound':>7}" + (f" {'base us':>9} {'bound/base':>10} {'vk/base':>7}" if base else ""))
    verdicts = []
    for (suite, batch, dtype, layout), g in groups.items():
        line = (f"{suite:16} {batch:3d} {dtype:5} {layout:6} {g['n']:6d} {g['n'] * dev.floor:9.1f} {g['bound']:9.1f} "
                f"{g['fused']:9.1f} {g['us']:10.1f} {g['us'] / g['bound']:7.2f}")
        if base and g["nbase"] == g["n"]:
            line += f" {g['base']:9.1f} {g['bound'] / g['base']:10.2f} {g['us'] / g['base']:7.2f}"
            if batch in targets:
                want = targets[batch] * g["base"]
                verdicts.append(verdict(suite, batch, dtype, layout, targets[batch], want, g, dev))
        elif base:
            line += f"  (baseline has {g['nbase']} of {g['n']} rows)"
        print(line)
    if verdicts:
        print("\ntargets:")
        for v in verdicts:
            print("  " + v)

    print(f"\nper layer, largest headroom first (vkconv us - bound us):")
    print(f"{'suite':16} {'layer':26} {'n':>3} {'dtype':5} {'bound us':>9} {'design':8} {'fused us':>9} {'vkconv us':>10} "
          f"{'x bound':>7}" + (f" {'base us':>9} {'base/bound':>10}" if base else "") + "  algorithm")
    for r, bound, design, fused, b in sorted(per_layer, key=lambda t: -(t[0]["us"] - t[1]))[:a.layers]:
        print(f"{r['suite']:16} {r['layer'][:26]:26} {r['batch']:3d} {r['dtype']:5} {bound:9.2f} {design:8} {fused:9.2f} "
              f"{r['us']:10.2f} {r['us'] / bound:7.2f}" + (f" {b:9.2f} {b / bound:10.2f}" if b else "") + f"  {r.get('algo', '')}")
    if base:
        faster = [(r, bound, b) for r, bound, _, _, b in per_layer if b and b < bound]
        if faster:
            print(f"\n{len(faster)} rows where the baseline ran under the bound (it does what no design priced here can on this API): "
                  f"{sum(b for _, _, b in faster):.1f} us against a bound of {sum(bd for _, bd, _ in faster):.1f}")
    return 0


def verdict(suite, batch, dtype, layout, ratio, want, g, dev):
    """One target's reading: the sum it allows against the floors and the bound."""
    head = f"{suite} b{batch} {dtype} {layout} <= {ratio:g}x baseline = {want:.1f} us: "
    floors = g["n"] * dev.floor
    if floors >= want:
        return head + f"OUT OF REACH: {g['n']} dependent calls cost {floors:.1f} us at the call floor alone"
    if g["bound"] > want:
        return head + f"OUT OF REACH for every design priced: their bound is {g['bound']:.1f} us ({g['bound'] / want:.2f}x the target)"
    return head + (f"within the bound ({g['bound']:.1f} us): the kernels would have to run at {g['bound'] / want:.0%} of "
                   f"the bound's speed or better (now {g['bound'] / g['us']:.0%})")


def load_peaks(path):
    """`peaks` of a bench JSON or of vkconv-bench's peak cache (the same record)."""
    with open(path) as f:
        doc = json.load(f)
    if not isinstance(doc.get("peaks"), dict):
        raise SystemExit(f"bounds.py: {path}: no peaks record")
    return doc["peaks"]


if __name__ == "__main__":
    sys.exit(main())
