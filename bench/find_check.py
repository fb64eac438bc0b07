#!/usr/bin/env python3
"""Checks vkconv-bench find output (the bench_find test): the file validates (benchjson: the
candidates fastest first, one router pick), every row ran the fastest candidate that was timed,
and the 3x3 layer's candidates include both winograd variants and a direct kernel."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchjson  # noqa: E402

doc = json.load(open(sys.argv[1]))
benchjson.validate(doc)
assert doc["protocol"].get("find") is True, doc["protocol"]
rows = doc["rows"]
assert rows, "no rows"
for r in rows:
    assert r["check"] == "pass", (r["layer"], r["check"])
    cands = r["find"]["candidates"]
    best = next(c for c in cands if "error" not in c)
    assert (r["algo"], r["config"]) == (best["algo"], best["config"]), (r["layer"], r["algo"], r["config"], best)
    configs = " ".join(c["config"] for c in cands)
    if r["r"] == 3:
        assert "F(2x2,3x3)" in configs and "F(4x4,3x3)" in configs, configs
        assert any(c["algo"].startswith("direct") for c in cands), configs
print(f"{len(rows)} rows: each ran its fastest timed candidate")
