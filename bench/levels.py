#!/usr/bin/env python3
"""Tables from `vkconv-bench --algo all` JSON: per algorithm, suite totals over the layers every
listed algorithm ran (the optimization-level table), and a per-layer comparison of two algorithms
(e.g. the padding masks: implicit_gemm vs implicit_gemm_analytic).

  python3 bench/levels.py levels.json [--compare implicit_gemm implicit_gemm_analytic] [--filter 3x3]"""
import argparse
import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchjson  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json", nargs="+")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"))
    ap.add_argument("--pad-heavy", action="store_true", help="only layers with R,S > 1 and padding")
    a = ap.parse_args()
    rows = [r for f in a.json for r in benchjson.load(f)["rows"] if r.get("us")]
    groups = collections.defaultdict(dict)  # (suite, batch, dtype, layout, layer) -> algo -> row
    for r in rows:
        groups[(r["suite"], r["batch"], r["dtype"], r["layout"], r["layer"])][r["algo"]] = r
    if not a.compare:
        by_cfg = collections.defaultdict(list)
        for key, algos in groups.items():
            by_cfg[key[:4]].append(algos)
        for cfg, layers in sorted(by_cfg.items()):
            names = sorted({n for l in layers for n in l})
            common = [l for l in layers if all(n in l for n in names if n != "depthwise")]
            print(f"\n{' '.join(map(str, cfg))}: {len(common)} layers every algorithm ran")
            print("| algorithm | sum µs | TFLOP/s |\n|---|---:|---:|")
            for n in names:
                if n == "depthwise":
                    continue
                us = sum(l[n]["us"] for l in common)
                gf = sum(l[n]["gflop"] for l in common)
                print(f"| {n} | {us:.0f} | {gf / us * 1e3:.2f} |")
        return
    A, B = a.compare
    print(f"| suite | layer | batch | layout | shape | {A} µs | {B} µs | {B}/{A} |\n|---|---|---:|---|---|---:|---:|---:|")
    tot = [0.0, 0.0]
    for key, algos in sorted(groups.items()):
        if A not in algos or B not in algos:
            continue
        r = algos[A]
        if a.pad_heavy and not (r["r"] > 1 and (r["pad_h"] or r["pad_w"])):
            continue
        shape = f"{r['c']}x{r['h']}x{r['w']}->{r['k']} {r['r']}x{r['s']} p{r['pad_h']} s{r['stride_h']}"
        tot[0] += r["us"]; tot[1] += algos[B]["us"]
        print(f"| {key[0]} | {key[4]} | {key[1]} | {key[3]} | {shape} | {r['us']:.1f} | {algos[B]['us']:.1f} | {algos[B]['us'] / r['us']:.2f} |")
    print(f"| **total** | | | | | {tot[0]:.0f} | {tot[1]:.0f} | {tot[1] / tot[0]:.2f} |")


if __name__ == "__main__":
    main()
