#!/usr/bin/env python3
"""The docs/amd.md summary table from compile-lab JSON (vkconv-bench shader-stats --json):
ranges over the variants of each (family, algorithm, wave size).

    python3 bench/compile_lab_summary.py docs/results/radv-compile-lab-2026-11-27-826be2d/{navi10,navi21,navi31,gfx1201}.json.xz
"""
import json
import lzma
import re
import sys
from collections import defaultdict


def span(values):
    lo, hi = min(values), max(values)
    return str(lo) if lo == hi else f"{lo}–{hi}"


def main(paths):
    print("| family | algorithm | wave | variants | VGPRs | waves/SIMD | LDS bytes | spills |")
    print("|---|---|---:|---:|---|---|---|---:|")
    for path in paths:
        family = re.sub(r"\.json(\.xz)?$", "", path.split("/")[-1])
        groups = defaultdict(list)
        opener = lzma.open if path.endswith(".xz") else open
        for p in json.load(opener(path, "rt"))["pipelines"]:
            for e in p["executables"]:
                groups[(p["algorithm"], e["subgroup_size"])].append((e["stats"], p["spills"]))
        for (algo, wave), rows in groups.items():
            st = [s for s, _ in rows]
            print(f"| {family} | {algo} | {wave} | {len(rows)} | {span([s['VGPRs'] for s in st])} | "
                  f"{span([s['Subgroups per SIMD'] for s in st])} | {span([s['LDS size'] for s in st])} | "
                  f"{sum(sp for _, sp in rows)} |")


if __name__ == "__main__":
    main(sys.argv[1:])
