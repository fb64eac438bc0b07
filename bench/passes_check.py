#!/usr/bin/env python3
"""Checks vkconv-bench --passes output (the bench_passes test, --algo all on one 3x3 layer): the
winograd row lists its input transform (which also transforms the filter: no filter pass), GEMM
and output transform in recording order, split-K its kernel and its reduction, and every other row
its one kernel, each timed."""
import json
import sys

rows = json.load(open(sys.argv[1]))["rows"]
assert rows, "no rows"
for r in rows:
    assert r["check"] == "pass", (r["algo"], r["check"])
    names = [p["shader"] for p in r.get("passes", [])]
    assert names, f"{r['algo']}: no passes"
    assert all(p["us"] > 0 for p in r["passes"]), r["passes"]
    if r["algo"] == "winograd":
        kinds = [n.split("_")[1] if n.startswith("winograd") else "gemm" for n in names]
        assert kinds == ["input", "gemm", "output"], names
    elif r["algo"] == "implicit_gemm_splitk":
        assert len(names) == 2 and names[1].startswith("splitk_reduce"), names
    elif r["algo"] in ("direct", "implicit_gemm", "direct_tiled"):
        assert len(names) == 1, names
assert {"winograd", "implicit_gemm_splitk", "direct"} <= {r["algo"] for r in rows}, [r["algo"] for r in rows]
print(f"{len(rows)} rows: passes listed and timed")
