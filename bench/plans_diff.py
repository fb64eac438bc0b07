#!/usr/bin/env python3
"""Compare the plans (algorithm + configuration per row) of two vkconv JSON files.

Either file may be a benchmark run (vkconv-bench/1 JSON or its --csv: what ran on the device)
or a plan list (vkconv-plans/1 JSON or CSV: vkconv-bench plans, or plans --caps PROFILE offline).  Rows are matched on
(suite, layer, batch, dtype, layout, epilogue); every row of EXPECTED must be in ACTUAL with the
same algorithm and configuration.  Exit 0 when they all match, 1 otherwise (the differences
are listed), 2 on unreadable input.

  python3 bench/plans_diff.py device_run.json offline_plans.json
"""
import csv
import json
import sys


def load(path):
    if path.endswith(".csv"):
        try:
            with open(path, encoding="utf-8", newline="") as f:
                rows = list(csv.DictReader(f))
        except OSError as e:
            print(f"plans_diff: cannot read {path}: {e}", file=sys.stderr)
            sys.exit(2)
        if rows and not {"suite", "layer", "batch", "dtype", "layout", "algo", "config"} <= rows[0].keys():
            print(f"plans_diff: {path} has no plan columns", file=sys.stderr)
            sys.exit(2)
        for r in rows:
            r["batch"] = int(r["batch"])
        return index(path, rows)
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"plans_diff: cannot read {path}: {e}", file=sys.stderr)
        sys.exit(2)
    if doc.get("schema") not in ("vkconv-bench/1", "vkconv-plans/1") or not isinstance(doc.get("rows"), list):
        print(f"plans_diff: {path} is not a vkconv-bench/1 or vkconv-plans/1 file", file=sys.stderr)
        sys.exit(2)
    if (doc.get("library") or {}).get("name", "vkconv") != "vkconv":
        print(f"plans_diff: {path} holds another library's rows", file=sys.stderr)
        sys.exit(2)
    return index(path, doc["rows"])


def index(path, rows_in):
    rows = {}
    for r in rows_in:
        key = (r["suite"], r["layer"], r["batch"], r["dtype"], r["layout"], r.get("epilogue", "none"))
        if key in rows and (rows[key]["algo"], rows[key]["config"]) != (r["algo"], r["config"]):
            print(f"plans_diff: {path} holds two different plans for {key} (a --algo all run?)", file=sys.stderr)
            sys.exit(2)
        rows[key] = r
    return rows


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    exp, act = load(argv[1]), load(argv[2])
    missing, diff = [], []
    for key, e in exp.items():
        a = act.get(key)
        if a is None:
            missing.append(key)
        elif (e["algo"], e["config"]) != (a["algo"], a["config"]):
            diff.append((key, e, a))
    for key, e, a in diff:
        print(f"{'/'.join(map(str, key[:2]))} n{key[2]} {key[3]} {key[4]}:\n"
              f"  expected {e['algo']} {e['config']}\n  actual   {a['algo']} {a['config']}")
    for key in missing:
        print(f"{'/'.join(map(str, key[:2]))} n{key[2]} {key[3]} {key[4]}: not in {argv[2]}")
    same = len(exp) - len(diff) - len(missing)
    print(f"{same} of {len(exp)} plans match; {len(diff)} differ, {len(missing)} missing")
    return 0 if not diff and not missing else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
