#!/usr/bin/env python3
"""The two floors of each suite: FLOPs over the arithmetic peak and bytes over bandwidth.

  python3 bench/floors.py --batch 32 --dtype fp32 [--peak-tflops 64.8] [--bandwidth-gbs 4221] [--suite NAME]...

Bytes = input + filter + output, each touched once (the least any kernel can move). The larger
floor bounds the time; measured time over it is the gap to explain.  Defaults are the H200's
measured peaks (vkconv-bench --peak, docs/results/)."""
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
    a = ap.parse_args()
    peak = a.peak_tflops or (64.8 if a.dtype == "fp32" else 644.0)
    suites_dir = Path(__file__).resolve().parent / "suites"
    names = a.suite or sorted(p.stem for p in suites_dir.glob("*.csv"))
    print(f"{'suite':16} {'layers':>6} {'GFLOP':>9} {'MB':>9} {'flop floor us':>14} {'byte floor us':>14} {'bound':>8}")
    for name in names:
        rows = benchjson.read_shapes(suites_dir / f"{name}.csv")
        gflop = mb = tf = tb = 0.0
        for r in rows:
            r = dict(r, n=a.batch)
            f = benchjson.conv_flops(r)
            byt = benchjson.conv_bytes(r, a.dtype)
            gflop += f / 1e9
            mb += byt / 1e6
            tf += f / (peak * 1e12) * 1e6
            tb += byt / (a.bandwidth_gbs * 1e9) * 1e6
        print(f"{name:16} {len(rows):6d} {gflop:9.1f} {mb:9.1f} {tf:14.1f} {tb:14.1f} {'flops' if tf > tb else 'bytes':>8}")


if __name__ == "__main__":
    main()
