#!/usr/bin/env python3
"""The two floors of each suite: FLOPs over the arithmetic peak and bytes over bandwidth.

  python3 bench/floors.py --batch 32 --dtype fp32 [--peak-tflops 64.8] [--bandwidth-gbs 4221] [--suite NAME]...
  python3 bench/floors.py --measured RUN.json [--peak-tflops ...] [--bandwidth-gbs ...] [--suite NAME]...

Bytes = input + filter + output, each touched once (the least any kernel can move). The larger
floor bounds the time; measured time over it is the gap to explain.  Defaults are the H200's
measured peaks (vkconv-bench peak).  --measured: per layer of a bench JSON
(vkconv-bench or torch_baseline.py), its rows' batch and dtype: both floors, the measured time and
its multiple of the larger floor, largest excess first; then each suite's sums."""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchjson  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", action="append")
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--dtype", default="fp32", choices=["fp32", "fp16", "bf16"])
    ap.add_argument("--peak-tflops", type=float, default=None, help="default: 64.8 fp32, 644 fp16/bf16 (coopmat)")
    ap.add_argument("--bandwidth-gbs", type=float, default=4221.0)
    ap.add_argument("--measured", help="a bench JSON: per-layer floors against its times")
    a = ap.parse_args()
    if a.measured:
        return per_layer(a)
    peak = a.peak_tflops or default_peak(a.dtype)
    suites_dir = Path(__file__).resolve().parent / "suites"
    names = a.suite or sorted(p.stem for p in suites_dir.glob("*.csv"))
    print(f"{'suite':16} {'layers':>6} {'GFLOP':>9} {'MB':>9} {'flop floor us':>14} {'byte floor us':>14} {'bound':>8}")
    for name in names:
        rows = benchjson.read_shapes(suites_dir / f"{name}.csv")
        gflop = mb = tf = tb = 0.0
        for r in rows:
            r = dict(r, n=a.batch)
            gflop += benchjson.conv_flops(r) / 1e9
            mb += benchjson.conv_bytes(r, a.dtype) / 1e6
            f_us, b_us = floors_us(r, a.dtype, peak, a.bandwidth_gbs)
            tf += f_us
            tb += b_us
        print(f"{name:16} {len(rows):6d} {gflop:9.1f} {mb:9.1f} {tf:14.1f} {tb:14.1f} {'flops' if tf > tb else 'bytes':>8}")


def default_peak(dtype):
    """TFLOP/s: the FMA peak for fp32, the cooperative-matrix peak for 16-bit types."""
    return 64.8 if dtype == "fp32" else 644.0


def floors_us(row, dtype, peak_tflops, bandwidth_gbs):
    """(flop floor, byte floor) in microseconds of one bench row (its own n)."""
    return (benchjson.conv_flops(row) / (peak_tflops * 1e12) * 1e6,
            benchjson.conv_bytes(row, dtype) / (bandwidth_gbs * 1e9) * 1e6)


def per_layer(a):
    rows = [r for r in benchjson.load(a.measured)["rows"] if r.get("us") and (not a.suite or r["suite"] in a.suite)]
    out, sums = [], {}
    for r in rows:
        peak = a.peak_tflops or default_peak(r["dtype"])
        tf, tb = floors_us(r, r["dtype"], peak, a.bandwidth_gbs)
        floor = max(tf, tb)
        out.append((r["us"] - floor, r, tf, tb, floor))
        key = (r["suite"], r["batch"], r["dtype"], r["layout"])
        s = sums.setdefault(key, [0.0, 0.0, 0.0, 0])
        s[0] += r["us"]; s[1] += tf; s[2] += tb; s[3] += 1
    print(f"{'suite':16} {'layer':24} {'n':>3} {'flop floor us':>13} {'byte floor us':>13} {'bound':>6} {'us':>9} {'x floor':>8}  algorithm")
    for excess, r, tf, tb, floor in sorted(out, key=lambda o: -o[0]):
        print(f"{r['suite']:16} {r['layer']:24} {r['batch']:3d} {tf:13.2f} {tb:13.2f} {'flops' if tf > tb else 'bytes':>6} "
              f"{r['us']:9.2f} {r['us'] / floor:8.2f}  {r.get('algo', '')}")
    print(f"\n{'suite':16} {'n':>3} {'dtype':5} {'layout':6} {'layers':>6} {'flop floor us':>13} {'byte floor us':>13} {'us':>9}")
    for (suite, batch, dtype, layout), (us, tf, tb, k) in sums.items():
        print(f"{suite:16} {batch:3d} {dtype:5} {layout:6} {k:6d} {tf:13.1f} {tb:13.1f} {us:9.1f}")


if __name__ == "__main__":
    main()
