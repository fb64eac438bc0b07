#!/usr/bin/env python3
"""Merge "vkconv-bench/1" JSON files (vkconv-bench, torch_baseline.py) into a markdown report
with per-layer times, ratios against a baseline, totals, and (with matplotlib) PNG plots.
Model-zoo rows (vkconv-bench --zoo: rows with a count) get per-model count-weighted sums and
ratios, their geometric mean, the worst model and the worst layers; each layer in zoo_layers.md.
The parts of a zoo run (--zoo-part I/N) merge as any files of one label do.

  python3 bench/report.py cudnn.json vkconv.json --baseline cudnn --out report/

Each input is labelled "<library>@<device short name>" (e.g. "cudnn@H200"); --label overrides.
Files with the same label are merged into one series.  ratio = time / baseline time, so < 1
means faster than the baseline.  Rows pair by (suite, layer, batch, dtype, layout, pass): each
pass of a suite (--pass bwd-data, bwd-weight) is a group of its own, compared only with the
baseline's rows of that pass.
"""
from __future__ import annotations

import argparse
import math
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchjson as bj  # noqa: E402

DASH = "—"
DTYPE_ORDER = {d: i for i, d in enumerate(bj.DTYPES)}
LAYOUT_ORDER = {l: i for i, l in enumerate(bj.LAYOUTS)}
PASS_ORDER = {p: i for i, p in enumerate(bj.PASSES)}


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def fmt(v: float) -> str:
    """About four significant digits, never scientific notation."""
    return f"{v:.0f}" if v >= 1000 else f"{v:.1f}" if v >= 100 else f"{v:.2f}" if v >= 1 else f"{v:.3f}"


def fmt_ratio(v: float) -> str:
    return f"{v:.2f}"


def geomean(xs) -> float:
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def short_device(name: str) -> str:
    """'NVIDIA H100 80GB HBM3' -> 'H100', 'AMD Radeon RX 5700 XT (RADV NAVI10)' -> 'RX 5700 XT'."""
    s = re.sub(r"\(.*?\)", " ", name)
    drop = {"nvidia", "amd", "intel", "intel(r)", "geforce", "radeon", "graphics", "pcie", "sxm",
            "sxm5", "nvl", "hbm", "hbm2", "hbm2e", "hbm3", "hbm3e", "corporation", "(tm)"}
    words = [w for w in s.split() if w.lower() not in drop and not re.fullmatch(r"\d+GB", w, re.I)]
    return " ".join(words) or name.strip()


def shape_text(r) -> str:
    """Compact shape: 'C→K H×W R×S' plus stride/dilation/groups/padding when not trivial; 'T' after
    the kernel marks a transposed convolution (its padding is PyTorch's, shown when not 0)."""
    t = f"{r['c']}→{r['k']} {r['h']}×{r['w']} {r['r']}×{r['s']}" + (" T" if bj.is_transposed(r) else "")
    if (r["stride_h"], r["stride_w"]) != (1, 1):
        t += f" s{r['stride_h']}" if r["stride_h"] == r["stride_w"] else f" s{r['stride_h']}×{r['stride_w']}"
    if (r["dil_h"], r["dil_w"]) != (1, 1):
        t += f" d{r['dil_h']}" if r["dil_h"] == r["dil_w"] else f" d{r['dil_h']}×{r['dil_w']}"
    if r["groups"] != 1:
        t += " dw" if r["groups"] == r["c"] == r["k"] else f" g{r['groups']}"
    same = (0, 0) if bj.is_transposed(r) else ((r["r"] - 1) * r["dil_h"] // 2, (r["s"] - 1) * r["dil_w"] // 2)
    if (r["pad_h"], r["pad_w"]) != same:
        t += f" p{r['pad_h']}" if r["pad_h"] == r["pad_w"] else f" p{r['pad_h']}×{r['pad_w']}"
    return t


class Series:
    """One labelled input: one or more files merged, one best row per identity key."""

    def __init__(self, label: str):
        self.label, self.files, self.docs = label, [], []
        self.rows: dict[tuple, dict] = {}
        self.algos: dict[tuple, set] = {}

    def add(self, path: str, doc: dict) -> None:
        self.files.append(path)
        self.docs.append(doc)
        for row in doc["rows"]:
            row = dict(row, _library=doc["library"]["name"])  # for the algo column
            key = bj.row_key(row)
            self.algos.setdefault(key, set()).add((row["algo"], row["config"]))
            old = self.rows.get(key)
            # Several algorithms (or files) for one layer: keep the fastest, which is what an
            # auto-tuner would pick; failed rows only when nothing else exists.
            if old is None or (bj.row_ok(row) and (not bj.row_ok(old) or row["us"] < old["us"])):
                self.rows[key] = row

    def ok(self, key) -> dict | None:
        row = self.rows.get(key)
        return row if row is not None and bj.row_ok(row) else None

    def peaks(self) -> dict:
        out = {}
        for doc in self.docs:
            out.update({k: v for k, v in (doc.get("peaks") or {}).items() if v is not None})
        return out


def algo_text(row) -> str:
    if row is None:
        return DASH
    return row["algo"] + (f" {row['config']}" if row["config"] else "")


def chosen_text(row) -> str:
    """What chose the row's plan (vkconv-bench's chosen_by / reason, Plan::explain), where recorded."""
    by, why = row.get("chosen_by"), row.get("reason")
    if not by:
        return DASH
    return by + (f": {why}" if why else "")


def cell(series: Series, key) -> str:
    row = series.rows.get(key)
    if row is None:
        return DASH
    if not bj.row_ok(row):
        return "OOM" if "memory" in (row.get("error") or "") else "error"
    return fmt(row["us"]) + (" ✗" if row["check"] == "fail" else "")


def load_series(args) -> list[Series]:
    overrides = {}
    for spec in args.label:
        path, sep, label = spec.partition("=")
        if not sep or not label:
            sys.exit(f"report: --label wants FILE=LABEL, got {spec!r}")
        overrides[path] = label
    series: dict[str, Series] = {}
    for path in args.files:
        try:
            doc = bj.load(path)
        except (OSError, bj.SchemaError) as e:
            sys.exit(f"report: {e}")
        label = overrides.get(path) or overrides.get(Path(path).name) or \
            f"{doc['library']['name']}@{short_device(doc['device']['name'])}"
        s = series.setdefault(label, Series(label))
        overlap = sum(bj.row_key(r) in s.rows for r in doc["rows"])
        s.add(path, doc)
        if len(s.files) > 1:
            # Disjoint files (say fp32 and fp16 runs) just combine; overlapping ones are
            # probably distinct runs that the user wants apart.
            log(f"report: {path} joins {label} ({', '.join(s.files[:-1])})" +
                (f"; {overlap} layer(s) in both: the faster row is kept. Use --label FILE=LABEL "
                 "to keep the files apart" if overlap else ""))
    return list(series.values())


def pick_baseline(series: list[Series], sel: str | None) -> Series:
    """By exact label, file path or name, else a unique substring of a label."""
    if sel is None:
        return series[0]
    for s in series:
        if sel == s.label or any(sel in (f, Path(f).name) for f in s.files):
            return s
    hits = [s for s in series if sel.lower() in s.label.lower()]
    if len(hits) == 1:
        return hits[0]
    labels = ", ".join(s.label for s in series)
    sys.exit(f"report: --baseline {sel!r} matches {'several' if hits else 'no'} input(s); labels: {labels}")


def zoo_suites(series: list[Series]) -> set[str]:
    """The suites that are zoo models: their rows carry a count (vkconv-bench --zoo)."""
    return {key[0] for s in series for key, row in s.rows.items() if "count" in row}


def build_groups(series: list[Series], only=None, skip=frozenset()) -> dict[tuple, list[tuple]]:
    """(suite, dtype, layout, batch, pass) -> row keys, layers in the order the inputs list them;
    suites in `only` (when given) and not in `skip`.  A layer's passes are in different groups, so
    a row is only ever compared with the same pass of the baseline."""
    groups: dict[tuple, dict[tuple, None]] = {}
    suite_order: dict[str, int] = {}
    for s in series:
        for key in s.rows:
            suite, _, batch, dtype, layout, pss = key
            if suite in skip or (only is not None and suite not in only):
                continue
            suite_order.setdefault(suite, len(suite_order))
            groups.setdefault((suite, dtype, layout, batch, pss), {})[key] = None
    order = sorted(groups, key=lambda g: (suite_order[g[0]], PASS_ORDER[g[4]], DTYPE_ORDER[g[1]],
                                          LAYOUT_ORDER[g[2]], g[3]))
    return {g: list(groups[g]) for g in order}


def totals(s: Series, base: Series, keys) -> dict:
    """Sums over the layers this series has; ratios over the layers both it and the baseline have."""
    # A zoo row stands for `count` identical convolutions of its model (suite): sums weigh it so.
    mine = [s.ok(k) for k in keys if s.ok(k)]
    t = {"n": len(mine), "of": len(keys), "us": sum(count(r) * r["us"] for r in mine),
         "gflop": sum(count(r) * r["gflop"] for r in mine)}
    t["tflops"] = t["gflop"] * 1e3 / t["us"] if t["us"] else None
    common = [(s.ok(k)["us"], base.ok(k)["us"], count(s.ok(k))) for k in keys if s.ok(k) and base.ok(k)]
    t["common"] = len(common)
    t["sum_ratio"] = sum(a * c for a, _, c in common) / sum(b * c for _, b, c in common) if common else None
    t["geomean"] = geomean([a / b for a, b, _ in common]) if common else None
    return t


def count(row) -> int:
    return row.get("count", 1)


def pass_text(pss: str) -> str:
    """' · bwd-data' for a backward pass; nothing for the forward pass (the usual case)."""
    return "" if pss == "fwd" else f" · {pss}"


def group_title(g) -> str:
    suite, dtype, layout, batch, pss = g
    return f"{suite} · {dtype} {layout} · batch {batch}{pass_text(pss)}"


def group_section(g, keys, series, base, tot, plots) -> list[str]:
    """One group's markdown: a line per layer, totals, plots."""
    others = [s for s in series if s is not base]
    md = [f"## {group_title(g)}", ""]
    # Inputs that name their algorithms (vkconv, not cuDNN's "cudnn") get a column for the
    # one timed, the fastest where several were.
    algo_cols = [s for s in series if any(len(s.algos.get(k, ())) > 1 or
                                          (s.ok(k) and s.ok(k)["algo"] != s.ok(k)["_library"])
                                          for k in keys)]
    zoo = any("count" in s.rows[k] for s in series for k in keys if k in s.rows)
    head = ["layer", "shape", "GFLOP"] + (["count"] if zoo else []) + [f"{s.label} µs" for s in series] + \
           [f"{s.label} / {base.label}" for s in others] + [f"{s.label} algo" for s in algo_cols]
    md += ["| " + " | ".join(head) + " |",
           "|---|---|" + "---:|" * (1 + zoo + len(series) + len(others)) + "---|" * len(algo_cols)]
    for key in keys:
        any_row = next(s.rows[key] for s in [base] + others if key in s.rows)
        line = [key[1], shape_text(any_row), fmt(any_row["gflop"])] + ([str(count(any_row))] if zoo else [])
        line += [cell(s, key) for s in series]
        line += [fmt_ratio(s.ok(key)["us"] / base.ok(key)["us"]) if s.ok(key) and base.ok(key) else DASH
                 for s in others]
        line += [algo_text(s.ok(key)) for s in algo_cols]
        md.append("| " + " | ".join(line) + " |")
    firsts = [next(s.rows[k] for s in series if k in s.rows) for k in keys]
    gflop = sum(count(r) * r["gflop"] for r in firsts)
    line = ["**total**", f"{len(keys)} layers", fmt(gflop)] + ([str(sum(map(count, firsts)))] if zoo else [])
    line += [fmt(tot[s.label]["us"]) if tot[s.label]["n"] else DASH for s in series]
    line += [fmt_ratio(tot[s.label]["sum_ratio"]) if tot[s.label]["common"] else DASH for s in others]
    line += [""] * len(algo_cols)
    md += ["| " + " | ".join(line) + " |", ""]
    parts = []
    for s in series:
        t = tot[s.label]
        if not t["n"]:
            parts.append(f"**{s.label}** no rows")
            continue
        p = f"**{s.label}** {fmt(t['us'])} µs, {fmt(t['tflops'])} TFLOP/s ({t['n']}/{t['of']} layers)"
        if s is not base and t["common"]:
            p += (f", sum ratio {fmt_ratio(t['sum_ratio'])}, geomean {fmt_ratio(t['geomean'])} "
                  f"over {t['common']} common layer{'s' * (t['common'] != 1)}")
        parts.append(p)
    md += ["Totals: " + " · ".join(parts), ""]
    for kind, path in plots:
        md += [f"![{kind}: {group_title(g)}]({path})", ""]
    return md


def zoo_models_table(series, base, zgroups, config) -> tuple[list[str], dict]:
    """The zoo's models at one (dtype, layout, batch): a line per model, then the geometric mean
    of the per-model ratios and the worst model of each input.  Returns the lines and, per input
    label, {model: ratio}."""
    others = [s for s in series if s is not base]
    models = sorted((g for g in zgroups if g[1:] == config), key=lambda g: g[0])
    head = ["model", "layers", "convs", "GFLOP"] + [f"{s.label} ms" for s in series] + \
           [f"{s.label} / {base.label}" for s in others]
    md = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    ratios: dict[str, dict[str, float]] = {s.label: {} for s in others}
    for g in models:
        keys = zgroups[g]
        firsts = [next(s.rows[k] for s in series if k in s.rows) for k in keys]
        tot = {s.label: totals(s, base, keys) for s in series}
        line = [g[0], str(len(keys)), str(sum(map(count, firsts))),
                fmt(sum(count(r) * r["gflop"] for r in firsts))]
        for s in series:
            t = tot[s.label]
            partial = f" ({t['n']}/{t['of']})" if t["n"] < t["of"] else ""
            line.append(fmt(t["us"] / 1e3) + partial if t["n"] else DASH)
        for s in others:
            t = tot[s.label]
            if t["common"]:
                if t["common"] == len(keys):  # a model compares only where both have every layer
                    ratios[s.label][g[0]] = t["sum_ratio"]
                partial = f" ({t['common']}/{len(keys)})" if t["common"] < len(keys) else ""
                line.append(fmt_ratio(t["sum_ratio"]) + partial)
            else:
                line.append(DASH)
        md.append("| " + " | ".join(line) + " |")
    md.append("")
    for s in others:
        r = ratios[s.label]
        left = len(models) - len(r)
        if r:
            worst = max(r, key=r.get)
            best = min(r, key=r.get)
            md.append(f"{s.label} / {base.label}: geometric mean of the per-model ratios "
                      f"**{fmt_ratio(geomean(r.values()))}** over {len(r)} model{'s' * (len(r) != 1)}; worst model "
                      f"**{worst}** ({fmt_ratio(r[worst])}), best {best} ({fmt_ratio(r[best])})" +
                      (f"; {left} model{'s' * (left != 1)} left out, a layer missing in one input." if left else "."))
            md.append("")
        elif left:
            md += [f"{s.label} / {base.label}: no model has every layer in both inputs.", ""]
    return md, ratios


def zoo_worst_layers(series, base, zgroups, config, top=20) -> list[str]:
    """The distinct shapes at one (dtype, layout, batch) with the highest ratio to the baseline,
    per input: each with the models that have it and how many convolutions in all."""
    md = []
    for s in (x for x in series if x is not base):
        shapes: dict[tuple, dict] = {}
        for g, keys in zgroups.items():
            if g[1:] != config:
                continue
            for k in keys:
                a, b = s.ok(k), base.ok(k)
                if not (a and b):
                    continue
                e = shapes.setdefault(bj.shape_key(a), {"row": a, "base": b, "models": {}, "convs": 0})
                e["models"][g[0]] = e["models"].get(g[0], 0) + count(a)
                e["convs"] += count(a)
        worst = sorted(shapes.values(), key=lambda e: e["row"]["us"] / e["base"]["us"], reverse=True)[:top]
        if not worst:
            continue
        md += [f"Worst {len(worst)} layers of {s.label} / {base.label} (distinct shapes, by ratio):", "",
               f"| shape | GFLOP | models (convs) | {base.label} µs | {s.label} µs | ratio | {s.label} algo "
               "| chosen by |",
               "|---|---:|---|---:|---:|---:|---|---|"]
        for e in worst:
            names = sorted(e["models"], key=lambda m: (-e["models"][m], m))
            where = ", ".join(f"{m} ×{e['models'][m]}" if e["models"][m] > 1 else m for m in names[:3])
            if len(names) > 3:
                where += f" and {len(names) - 3} more"
            md.append(f"| {shape_text(e['row'])} | {fmt(e['row']['gflop'])} | {where} ({e['convs']}) "
                      f"| {fmt(e['base']['us'])} | {fmt(e['row']['us'])} "
                      f"| {fmt_ratio(e['row']['us'] / e['base']['us'])} | {algo_text(e['row'])} "
                      f"| {chosen_text(e['row'])} |")
        md.append("")
    return md


def zoo_markdown(series, base, zgroups) -> list[str]:
    """The model zoo: per (dtype, layout, batch), each model's count-weighted time and ratio, their
    geometric mean, the worst model per input and the worst layers.  Every layer: zoo_layers.md."""
    configs = sorted({g[1:] for g in zgroups},
                     key=lambda c: (PASS_ORDER[c[3]], DTYPE_ORDER[c[0]], LAYOUT_ORDER[c[1]], c[2]))
    n_models = len({g[0] for g in zgroups})
    md = ["", "## Model zoo", "",
          f"{n_models} models (bench/zoo). A model's time = the sum over its layers of count × the "
          "layer's time (count: its convolutions of that shape); ratio = that sum / the baseline's, "
          "over the layers both inputs have ((n/of) where some are missing). Each layer of every model: "
          "zoo_layers.md.", ""]
    for config in configs:
        md += [f"### Zoo · {config[0]} {config[1]} · batch {config[2]}{pass_text(config[3])}", ""]
        table, _ = zoo_models_table(series, base, zgroups, config)
        md += table
        md += zoo_worst_layers(series, base, zgroups, config)
    return md


def write_markdown(out: Path, series, base, groups, plots, zgroups=None) -> str:
    others = [s for s in series if s is not base]
    md = ["# vkconv benchmark report", ""]
    md += [f"Baseline: **{base.label}**. ratio = time / baseline time: below 1 is faster than the "
           "baseline. Totals: sum of per-layer times; TFLOP/s = sum of FLOPs / sum of times; "
           "ratios over the layers both inputs have (sum ratio = ratio of summed times, geomean = "
           f"geometric mean of per-layer ratios). {DASH} = no row, OOM/error = the run failed, "
           "✗ = failed its correctness check.", ""]
    md += ["| label | file | tool | device | driver | library | framework | protocol | created |",
           "|---|---|---|---|---|---|---|---|---|"]
    for s in series:
        for f, d in zip(s.files, s.docs):
            lib, dev, pro = d["library"], d["device"], d["protocol"]
            libtxt = f"{lib['name']} {lib['version']}" + (f" ({lib['git']})" if lib.get("git") else "")
            md.append(f"| {s.label} | {Path(f).name} | {d['tool']} | {dev['name']} | {dev['driver']} "
                      f"| {libtxt} | {lib.get('framework') or DASH} | {pro['warmup']} warm-up, "
                      f"{pro['batch']}×{pro['repeats']} {pro['statistic']}, {pro['timer']} "
                      f"| {d['created']} |")
    md.append("")

    zgroups = zgroups or {}
    group_totals = {g: {s.label: totals(s, base, keys) for s in series} for g, keys in groups.items()}
    if groups:
        # Summary: one line per group; the numbers are repeated under each group's table.
        head = ["suite", "dtype", "layout", "batch", "pass", "layers"]
        for s in series:
            head += [f"{s.label} µs", f"{s.label} TFLOP/s"]
            if s is not base:
                head += [f"{s.label} sum ratio", f"{s.label} geomean"]
        md += ["## Summary", "", "| " + " | ".join(head) + " |",
               "|" + "---|" * 6 + "---:|" * (len(head) - 6)]
        for g, keys in groups.items():
            line = [g[0], g[1], g[2], str(g[3]), g[4], str(len(keys))]
            for s in series:
                t = group_totals[g][s.label]
                partial = f" ({t['n']}/{t['of']})" if t["n"] < t["of"] else ""
                line += [fmt(t["us"]) + partial if t["n"] else DASH, fmt(t["tflops"]) if t["n"] else DASH]
                if s is not base:
                    line += [fmt_ratio(t["sum_ratio"]) if t["common"] else DASH,
                             fmt_ratio(t["geomean"]) if t["common"] else DASH]
            md.append("| " + " | ".join(line) + " |")
        for s in others:
            allk = [k for keys in groups.values() for k in keys if s.ok(k) and base.ok(k)]
            if allk:
                md.append("")
                md.append(f"Overall geomean ratio {s.label} / {base.label}: "
                          f"**{fmt_ratio(geomean([s.ok(k)['us'] / base.ok(k)['us'] for k in allk]))}** "
                          f"over {len(allk)} layers.")
    if zgroups:
        md += zoo_markdown(series, base, zgroups)
    floors = [(s.label, s.peaks()["call_floor_us"]) for s in series if s.peaks().get("call_floor_us")]
    if floors:
        md += ["", "Call floors (`peaks.call_floor_us`, the least one call costs: a 4 KiB copy timed "
               "under the rows' protocol): " + ", ".join(f"{label} {fmt(v)} µs" for label, v in floors) +
               ". A suite of L layers takes at least L × its floor (more where a plan records several "
               "dispatches: split-K two, winograd one plus three per chunk)."]
    md.append("")

    problems = []
    for s in series:
        copies: dict[tuple, list] = {}  # a zoo shape's failure once, with how many rows share it
        for (suite, layer, batch, dtype, layout, pss), row in s.rows.items():
            where = f"- {s.label}: {suite}/{layer} b{batch} {dtype} {layout}" + ("" if pss == "fwd" else f" {pss}")
            if "count" in row and (not bj.row_ok(row) or row["check"] == "fail"):
                copy = copies.setdefault((bj.shape_key(row), batch, dtype, layout, pss), [where, row, 0])
                copy[2] += 1
                continue
            if not bj.row_ok(row):
                problems.append(f"{where}: {row['error']}")
            elif row["check"] == "fail":
                problems.append(f"{where}: check failed (max_rel_err {row['max_rel_err']:.2e})")
        for where, row, n in copies.values():
            more = f" (and {n - 1} more zoo row{'s' * (n != 2)} of this shape)" if n > 1 else ""
            why = row["error"] if not bj.row_ok(row) else f"check failed (max_rel_err {row['max_rel_err']:.2e})"
            problems.append(f"{where}: {why}{more}")
    if problems:
        md += ["## Failures", ""] + sorted(problems) + [""]

    for g, keys in groups.items():
        md += group_section(g, keys, series, base, group_totals[g], plots.get(g, []))
    text = "\n".join(md)
    (out / "report.md").write_text(text)
    if zgroups:
        # Every zoo model's layers: long, so in a file of their own.
        zmd = ["# vkconv benchmark report: the model zoo's layers", "",
               f"Baseline: **{base.label}**; see report.md. count = the model's convolutions of that shape; "
               "totals weigh each row by it.", ""]
        for g, keys in zgroups.items():
            zmd += group_section(g, keys, series, base, {s.label: totals(s, base, keys) for s in series}, [])
        (out / "zoo_layers.md").write_text("\n".join(zmd))
    return text


# ---------------------------------------------------------------------------- plots

def peaks_for(dtype: str, peaks: dict) -> list[tuple[str, float]]:
    """The peaks that bound a conv in this dtype: FMA peaks of the arithmetic it can use and
    cooperative-matrix configs whose A/B type matches (tf32 has no Vulkan coopmat type)."""
    out = []
    if peaks.get("fp32_fma_tflops"):
        out.append(("fp32 FMA", peaks["fp32_fma_tflops"]))
    if dtype == "fp16" and peaks.get("fp16_fma_tflops"):
        out.append(("fp16 FMA", peaks["fp16_fma_tflops"]))
    want = {"fp32": "f32", "tf32": "f32", "fp16": "f16", "bf16": "bf16"}[dtype]
    for name, v in (peaks.get("coopmat_tflops") or {}).items():
        m = re.search(r"\b(\w+?)\*", name)
        if m is None or m.group(1) == want:
            out.append((f"coopmat {name}", v))
    return out


def make_plots(out: Path, series, groups) -> dict:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib import ticker
    except ImportError as e:
        log(f"report: matplotlib is not importable ({e}); writing report.md without plots "
            "(install it, e.g. apt-get install python3-matplotlib, for the PNGs)")
        return {}
    plt.rcParams.update({"font.size": 13, "axes.titlesize": 15, "axes.labelsize": 14,
                         "legend.fontsize": 12, "xtick.labelsize": 11, "ytick.labelsize": 12})
    pdir = out / "plots"
    pdir.mkdir(exist_ok=True)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    markers = "osD^vP*Xh"
    result = {}
    for g, keys in groups.items():
        stem = re.sub(r"[^\w.-]+", "_", f"{g[0]}_{g[1]}_{g[2]}_b{g[3]}" + ("" if g[4] == "fwd" else f"_{g[4]}"))
        layers = [k[1] for k in keys]
        files = []

        present = [(i, s) for i, s in enumerate(series) if any(s.ok(k) for k in keys)]
        if not present:  # every row of the group failed: nothing to draw
            result[g] = files
            continue

        # Grouped bars: per-layer TFLOP/s, one bar per input; missing rows leave a gap.
        fig, ax = plt.subplots(figsize=(max(14, 0.45 * len(keys) * max(1, len(present) / 2)), 6))
        width = 0.8 / len(present)
        for slot, (i, s) in enumerate(present):  # colour by input, so it matches every plot
            xs = [j + (slot - (len(present) - 1) / 2) * width for j in range(len(keys))]
            ys = [s.ok(k)["tflops"] if s.ok(k) else 0 for k in keys]
            ax.bar(xs, ys, width, label=s.label, color=colors[i % len(colors)])
        ax.set_xticks(range(len(keys)))
        ax.set_xticklabels(layers, rotation=60, ha="right")
        ax.set_xlim(-0.6, len(keys) - 0.4)
        ax.set_ylabel("TFLOP/s")
        ax.set_title(f"{group_title(g)} — TFLOP/s per layer (higher is better)")
        ax.grid(axis="y", alpha=0.3)
        ax.legend()
        fig.tight_layout()
        name = f"tflops_{stem}.png"
        fig.savefig(pdir / name, dpi=110)
        plt.close(fig)
        files.append(("TFLOP/s per layer", f"plots/{name}"))

        # Roofline: arithmetic intensity of each layer vs achieved TFLOP/s, under the roofs
        # (peaks, and the bandwidth slope up to the highest peak) of every input that has them.
        pts = {s.label: [(bj.conv_flops(r) / bj.conv_bytes(r, r["dtype"]), r["tflops"])
                         for r in (s.ok(k) for k in keys) if r] for s in series}
        xs_all = [x for p in pts.values() for x, _ in p]
        ys_all = [y for p in pts.values() for _, y in p]
        roofs = [(i, s.peaks().get("bandwidth_gbs"), peaks_for(g[1], s.peaks()))
                 for i, s in enumerate(series)]
        # Widen the x range to show where the slope meets each roof (the ridge points).
        ridges = [v * 1e3 / bw for _, bw, pk in roofs if bw for _, v in pk]
        xlo, xhi = min(xs_all + ridges) / 2, max(xs_all + ridges) * 2
        ylo, yhi = min(ys_all) / 2, max(ys_all + [v for *_, pk in roofs for _, v in pk]) * 2
        fig, ax = plt.subplots(figsize=(14, 6))
        for i, s in enumerate(series):
            if pts[s.label]:
                ax.scatter(*zip(*pts[s.label]), s=60, marker=markers[i % len(markers)],
                           color=colors[i % len(colors)], label=s.label, zorder=3)
        for i, bw, pk in roofs:
            color = colors[i % len(colors)]
            labels: list[list] = []  # [value, text]: peaks within 15% share one line and label
            for name, v in sorted(pk, key=lambda p: p[1]):
                name = re.sub(r" subgroup$| workgroup$", "", name)
                if labels and v < labels[-1][0] * 1.15:
                    labels[-1][0] = max(labels[-1][0], v)
                    labels[-1][2] += 1
                    continue
                labels.append([v, f"{name} {fmt(v)}", 1])
            for j, (v, _, _) in enumerate(labels):
                ax.axhline(v, color=color, ls=["-", ":", "-.", "--"][j % 4], lw=1.3, alpha=0.8)
            labels = [[v, t + (f" (+{n - 1} within 15%)" if n > 1 else "")] for v, t, n in labels]
            for v, text in labels:
                ax.text(xhi / 1.05, v * 1.04, text, color=color, ha="right", va="bottom", fontsize=11)
            if bw:
                top = max((v for _, v in pk), default=yhi)
                x1 = top * 1e3 / bw  # TFLOP/s = FLOP/byte × GB/s / 1000
                ax.plot([xlo, x1], [xlo * bw / 1e3, top], color=color, ls="--", lw=1.3, alpha=0.8)
                # Below the slope, so the rising line never runs through the text.
                ax.text(xlo * 1.3, xlo * 1.3 * bw / 1e3 / 1.2, f"bandwidth {fmt(bw)} GB/s",
                        color=color, ha="left", va="top", fontsize=11)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(xlo, xhi)
        ax.set_ylim(ylo, yhi)
        for axis in (ax.xaxis, ax.yaxis):  # plain numbers at 1-2-5 steps, not 10^k
            axis.set_major_locator(ticker.LogLocator(base=10, subs=(1, 2, 5)))
            axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
            axis.set_minor_formatter(ticker.NullFormatter())
        ax.set_xlabel("arithmetic intensity (FLOP / byte of input + filter + output)")
        ax.set_ylabel("TFLOP/s")
        ax.set_title(f"{group_title(g)} — roofline")
        ax.grid(which="major", alpha=0.3)
        ax.legend(loc="upper left")
        fig.tight_layout()
        name = f"roofline_{stem}.png"
        fig.savefig(pdir / name, dpi=110)
        plt.close(fig)
        files.append(("roofline", f"plots/{name}"))
        result[g] = files
    return result


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", metavar="FILE.json")
    ap.add_argument("--baseline", metavar="SELECTOR",
                    help="label, file (path or name) or unique part of a label (default: first input)")
    ap.add_argument("--out", required=True, metavar="DIR", help="where report.md and plots/ go")
    ap.add_argument("--label", action="append", default=[], metavar="FILE=LABEL",
                    help="label for one input instead of <library>@<device> (repeatable)")
    ap.add_argument("--no-plots", action="store_true", help="markdown only")
    args = ap.parse_args(argv)

    series = load_series(args)
    base = pick_baseline(series, args.baseline)
    series = [base] + [s for s in series if s is not base]  # baseline is the first column
    # Zoo models (rows with a count) get the zoo's per-model summary, not a table and plots each.
    zoo = zoo_suites(series)
    groups = build_groups(series, skip=zoo)
    zgroups = build_groups(series, only=zoo)
    if not groups and not zgroups:
        sys.exit("report: the inputs hold no rows")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    plots = {} if args.no_plots else make_plots(out, series, groups)
    text = write_markdown(out, series, base, groups, plots, zgroups)
    if groups:
        print(text.split("## Summary\n\n", 1)[1].split("\n\n", 1)[0])
    if zgroups:
        # Per configuration: the geometric means and worst models.
        print("\n".join(line for line in text.split("## Model zoo\n", 1)[1].splitlines()
                        if line.startswith("### ") or "geometric mean" in line))
    n_plots = sum(map(len, plots.values()))
    log(f"report: wrote {out / 'report.md'}" + (f" and {n_plots} plots in {out / 'plots'}" if n_plots else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
