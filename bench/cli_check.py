#!/usr/bin/env python3
"""vkconv-bench's command line (the bench_cli test): numbers at their limits pass and past them
fail with an error naming the flag, never truncated; bad values and unknown flags fail with exit 2;
each subcommand has a help; the older form (a flag picks the tool) maps onto the subcommands.

  python3 bench/cli_check.py build/bench/vkconv-bench bench/cases/passes_check.csv
"""
import os
import subprocess
import sys
import tempfile

BENCH, SHAPES = sys.argv[1], sys.argv[2]
failures = []


def run(args, timeout=120):
    p = subprocess.run([BENCH] + args, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def rejects(args, *words):
    """The command line fails with exit 2 and an error on stderr holding every word."""
    rc, out, err = run(args)
    if rc != 2 or not all(w in err for w in words):
        failures.append(f"{args}: expected exit 2 and {words} on stderr, got exit {rc}: {err.strip()[:300]}")


def accepts(args, *words):
    """The command line runs (exit 0) and its stdout holds every word."""
    rc, out, err = run(args)
    if rc != 0 or not all(w in out for w in words):
        failures.append(f"{args}: expected exit 0 and {words} on stdout, got exit {rc}: {err.strip()[-300:]}")


# Integers: past the flag's own type or range, negative, not base-10 digits, missing.
for flag, bad in [("--repeats", "4294967296"), ("--repeats", "0"), ("--repeats", "1000001"), ("--repeats", "-1"),
                  ("--calls", "2147483648"), ("--calls", "0"), ("--calls", "99999999999999999999999"),
                  ("--warmup", "-1"), ("--warmup", "100001"), ("--warmup-ms", "3600001"), ("--warmup-ms", "2147483648"),
                  ("--workspace-mib", "17592186044416"), ("--workspace-mib", "-1"), ("--workspace-mib", "18446744073709551616"),
                  ("--batch", "0"), ("--batch", "2147483648"), ("--batch", "-5"),
                  ("--repeats", "12abc"), ("--repeats", "0x10"), ("--repeats", " 5"), ("--repeats", "+5"), ("--repeats", ""),
                  ("--calls", "1.5")]:
    rejects(["--shapes", SHAPES, flag, bad], flag)
    rejects(["run", "--shapes", SHAPES, flag, bad], flag)
rejects(["find", "--shapes", SHAPES, "--repeats", "4294967296"], "--repeats")
rejects(["plans", "--shapes", SHAPES, "--workspace-mib", "17592186044416"], "--workspace-mib")
rejects(["shader-stats", "--batch", "2147483648"], "--batch")
for bad in ["0", "-1", "nan", "inf", "1e999", "x"]:
    rejects(["--max-gflop", bad], "--max-gflop")
rejects(["--repeats"], "--repeats")  # no value

# Words: unknown values, unknown flags, flags of another tool, tools that do not mix.
rejects(["--dtype", "fp64"], "--dtype", "fp64")
rejects(["--layout", "nhcw"], "--layout", "nhcw")
rejects(["--algo", "no_such_algorithm"], "--algo", "no_such_algorithm")
rejects(["--pass", "backward"], "--pass", "backward")
rejects(["--epilogue", "bias_nope"], "--epilogue", "nope")
rejects(["--shader-stats", "--expect-isa", "nocolon"], "--expect-isa")
rejects(["--bogus"], "--bogus")
rejects(["run", "--bogus"], "--bogus")
rejects(["no-such-tool"], "no-such-tool")
rejects(["peak", "--check"], "--check")
rejects(["peak", "--suite", "resnet50"], "--suite")
rejects(["plans", "--check"], "--check")
rejects(["--plan-only", "--check"], "--check")
rejects(["--isa", "x"], "--isa")
rejects(["--peak", "--shader-stats"], "--peak", "--shader-stats")
rejects(["--find", "--plan-only"], "--find")
rejects(["--find", "--algo", "all"], "--algo")
rejects(["--caps", "x.json", "--device", "0"], "--caps")
rejects(["--validation", "--caps", "x.json"], "--caps")

# The library's device selector: an index past unsigned long is reported, not thrown through main.
rc, out, err = run(["--device", "99999999999999999999999", "--shapes", SHAPES])
if rc == 0 or not ("--device" in err or "device index" in err) or "terminate" in err:
    failures.append(f"--device 99999999999999999999999: expected an error naming --device, got exit {rc}: {err.strip()[:300]}")

# Shape files: a spreadsheet's byte-order mark is read past; a directory or a FIFO is refused by
# name (a FIFO must not block the read); a row that cannot run fails a --check run.
def fails(args, *words, timeout=120):
    """The command fails (non-zero exit) with every word in its output."""
    try:
        rc, out, err = run(args, timeout)
    except subprocess.TimeoutExpired:
        failures.append(f"{args}: did not return within {timeout} s")
        return
    if rc == 0 or not all(w in out + err for w in words):
        failures.append(f"{args}: expected a failure with {words}, got exit {rc}: {(out + err).strip()[-300:]}")


with tempfile.TemporaryDirectory() as tmp:
    text = open(SHAPES, encoding="utf-8").read()
    bom = os.path.join(tmp, "bom.csv")
    with open(bom, "w", encoding="utf-8-sig") as f:
        f.write(text)
    accepts(["--shapes", bom, "--max-gflop", "1e-300"], "skipped")
    fails(["--shapes", tmp], "not a regular file", "directory")
    fifo = os.path.join(tmp, "fifo.csv")
    os.mkfifo(fifo)
    fails(["--shapes", fifo], "not a regular file", "FIFO", timeout=60)
    bad = os.path.join(tmp, "stride0.csv")
    with open(bad, "w") as f:
        f.write(text.splitlines()[0] + "\ncases,stride0,1,8,8,8,8,3,3,1,1,0,1,1,1,1\n")
    fails(["--shapes", bad, "--check"], "cannot run", "0 passed, 1 failed")

# Every limit itself passes; nothing is timed (at batch 2^31-1 the layer cannot run, or --max-gflop skips it).
limits = ["--repeats", "1000000", "--calls", "1000000", "--warmup", "100000", "--warmup-ms", "3600000",
          "--workspace-mib", "17592186044415", "--batch", "2147483647", "--max-gflop", "1e-300"]
accepts(["--shapes", SHAPES] + limits, "cannot run", "index overflow")  # 2^31-1 images: past 32-bit indexing
accepts(["run", "--shapes", SHAPES] + limits, "cannot run", "index overflow")
accepts(["run", "--shapes", SHAPES, "--repeats=1", "--calls=1", "--warmup=0", "--warmup-ms=0", "--max-gflop=1e-300"], "skipped")

# Flags (no value) and global options anywhere, in both forms.
skip = ["--max-gflop", "1e-300"]
accepts(["--shapes", SHAPES, "--passes", "--check", "--validation", "--warmup", "1", "--calls", "2"] + skip, "skipped")
accepts(["--validation", "run", "--shapes", SHAPES, "--check", "--warmup", "1"] + skip, "skipped")
accepts(["run", "--check", "--validation", "--shapes", SHAPES, "--device", "0", "--calls", "2"] + skip, "skipped")
accepts(["--suites-dir", "/nonexistent", "--shapes", SHAPES, "--find-fresh", "--calls", "2"] + skip, "skipped")

# The model zoo: --zoo [MODELS], --zoo-part I/N, --zoo-dir.  Identical shapes are timed once and
# reported for every row (JSON rows carry model and count); the parts split the distinct shapes
# as bench/benchjson.py's zoo_part does for torch_baseline.py.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchjson as bj  # noqa: E402

H200 = os.path.join(os.path.dirname(os.path.abspath(__file__)), "profiles", "nvidia_h200.json")
ZOO_HEADER = "suite,layer,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups,count\n"
for bad in ["0/2", "3/2", "2", "a/2", "1/0", "-1/2", "1/2x"]:
    rejects(["--zoo", "--zoo-part", bad], "--zoo-part")
rejects(["--zoo-part", "1/2", "--shapes", SHAPES], "--zoo-part", "--zoo")
rejects(["--zoo", "--suite", "resnet50"], "--zoo", "--suite")
rejects(["run", "--zoo=a", "--shapes", SHAPES], "--zoo", "--shapes")
with tempfile.TemporaryDirectory() as zoo:
    fails(["--zoo", "--zoo-dir", zoo], "no model zoo", zoo)
    with open(os.path.join(zoo, "ma.csv"), "w") as f:
        f.write(ZOO_HEADER + "# skipped x: padding='same' with an even kernel\n"
                "ma,conv1,1,3,8,8,4,3,3,1,1,1,1,1,1,1,1\nma,block,1,4,8,8,4,3,3,1,1,1,1,1,1,1,3\n"
                "ma,head,1,4,8,8,2,1,1,0,0,1,1,1,1,1,2\n")
    with open(os.path.join(zoo, "mb.csv"), "w") as f:
        f.write(ZOO_HEADER + "mb,stem,1,3,8,8,4,3,3,1,1,1,1,1,1,1,1\nmb,dw,1,4,8,8,4,3,3,1,1,1,1,1,1,4,2\n"
                "mb,body,1,4,8,8,4,3,3,1,1,1,1,1,1,1,4\n")
    fails(["--zoo", "nosuch", "--zoo-dir", zoo], "no zoo model 'nosuch'", "ma, mb")
    with open(os.path.join(zoo, "bad.csv"), "w") as f:
        f.write(ZOO_HEADER + "bad,x,1,3,8,8,4,3,3,1,1,1,1,1,1,1,0\n")
    fails(["--zoo", "bad", "--zoo-dir", zoo], "bad.csv:2", "count")
    os.remove(os.path.join(zoo, "bad.csv"))
    # Planned offline: which rows each part holds, against the Python split.
    rows = [r for m in ("ma", "mb") for r in bj.read_shapes(os.path.join(zoo, m + ".csv"))]
    for part in ("1/1", "1/2", "2/2", "2/3", "3/3"):
        i, n = bj.parse_zoo_part(part)
        want = sorted((r["suite"], r["layer"]) for r in bj.zoo_part(rows, i, n))
        rc, out, err = run(["plans", "--caps", H200, "--zoo", "--zoo-dir", zoo, "--zoo-part", part])
        got = sorted(tuple(l.split()[:2]) for l in out.splitlines() if l.startswith(("ma ", "mb ")))
        if rc != 0 or got != want:
            failures.append(f"--zoo-part {part}: rows {got}, expected {want} (exit {rc}: {err.strip()[:200]})")
    # Listed models, in both forms and older form; the environment's directory.
    for args in (["--zoo", "mb"], ["--zoo=mb"], ["--zoo", "mb", "--zoo", "mb"]):
        rc, out, err = run(["plans", "--caps", H200, "--zoo-dir", zoo] + args)
        if rc != 0 or "mb " not in out or "ma " in out:
            failures.append(f"plans {args}: expected mb's rows alone, got exit {rc}: {(out + err).strip()[-300:]}")
    rc, out, err = run(["--plan-only", "--caps", H200, "--zoo", "--zoo-dir", zoo])
    if rc != 0 or out.count("\nma ") != 3 or out.count("\nmb ") != 3:
        failures.append(f"--plan-only --zoo: expected 6 rows, got exit {rc}: {(out + err).strip()[-300:]}")
    # A run: 6 rows, 4 distinct shapes timed once each (stem = conv1, body = block), counts kept.
    js = os.path.join(zoo, "run.json")
    env = dict(os.environ, VKCONV_ZOO_DIR=zoo)
    p = subprocess.run([BENCH, "--zoo", "--check", "--warmup", "0", "--warmup-ms", "0", "--calls", "1", "--repeats",
                        "1", "--json", js], capture_output=True, text=True, timeout=300, env=env)
    timed = p.stderr.count("] ma/") + p.stderr.count("] mb/")
    try:
        doc = bj.load(js)
        got = {(r["suite"], r["layer"]): (r["count"], r["us"]) for r in doc["rows"]}
    except (OSError, bj.SchemaError) as e:
        doc, got = None, {}
        failures.append(f"--zoo run: no valid JSON ({e}); exit {p.returncode}: {p.stdout.strip()[-300:]}")
    if doc is not None:
        if (p.returncode != 0 or timed != 4 or "zoo: 2 models, 6 rows (13 convolutions), 4 distinct shapes" not in p.stdout
                or "6 passed, 0 failed" not in p.stdout or doc.get("zoo") != {"models": 2, "part": 1, "parts": 1}):
            failures.append(f"--zoo run: exit {p.returncode}, {timed} timed, zoo {doc.get('zoo')}: {p.stdout.strip()[-400:]}")
        counts = {k: v[0] for k, v in got.items()}
        if counts != {("ma", "conv1"): 1, ("ma", "block"): 3, ("ma", "head"): 2, ("mb", "stem"): 1, ("mb", "dw"): 2,
                      ("mb", "body"): 4}:
            failures.append(f"--zoo run: rows and counts {counts}")
        elif got[("ma", "conv1")][1] != got[("mb", "stem")][1] or got[("ma", "block")][1] != got[("mb", "body")][1]:
            failures.append(f"--zoo run: a shared shape's rows differ: {got}")

# --explain: each plan's decision under its row, offline for a card we do not have; the JSON
# carries what chose it.
with tempfile.TemporaryDirectory() as tmp:
    js = os.path.join(tmp, "plans.json")
    rc, out, err = run(["plans", "--caps", H200, "--shapes", SHAPES, "--dtype", "fp16", "--layout", "nhwc", "--explain",
                        "--json", js])
    rows = [l for l in out.splitlines() if l and not l.startswith((" ", "==", "suite")) and "plan(s)" not in l]
    if rc != 0 or out.count("chosen by the router: ") != len(rows) or out.count("router rules, in order:") != len(rows):
        failures.append(f"plans --explain: exit {rc}, {len(rows)} rows: {(out + err).strip()[-400:]}")
    elif out.count("(modelled times: NVIDIA: the H200 fit)") != len(rows) or "accepts, modelled " not in out:
        failures.append(f"plans --explain: rows without the device model's modelled times: {out.strip()[-400:]}")
    else:
        import json
        doc = json.load(open(js))
        if any(r.get("chosen_by") != "router" or not r.get("reason") for r in doc["rows"]):
            failures.append(f"plans --explain --json: rows without chosen_by/reason: {doc['rows'][:2]}")
    # --calibrate reads the card's measured peaks, which a profile does not have.
    rc, out, err = run(["plans", "--caps", H200, "--shapes", SHAPES, "--calibrate"])
    if rc != 2 or "--calibrate" not in err:
        failures.append(f"plans --caps --calibrate: expected exit 2 naming --calibrate, got exit {rc}: {err.strip()[:300]}")
    rc, out, err = run(["plans", "--caps", H200, "--shapes", SHAPES, "--algo", "direct", "--explain"])
    if rc != 0 or "chosen by the PlanOptions::algorithm: named by the caller (the router would run" not in out:
        failures.append(f"plans --algo direct --explain: exit {rc}: {(out + err).strip()[-300:]}")

# Help: the tool and each subcommand, in both forms.
helps = {
    (): ["run", "find", "peak", "plans", "shader-stats", "--device", "--validation", "--suites-dir", "--zoo-dir"],
    ("run",): ["--suite", "--shapes", "--zoo", "--zoo-part", "--batch", "--dtype", "--layout", "--algo", "--tile", "--workspace-mib", "--calls",
               "--repeats", "--warmup", "--warmup-ms", "--check", "--json", "--csv", "--passes", "--trace", "--peak", "--pass"],
    ("find",): ["--fresh", "--exhaustive", "--find-fresh", "--check", "--repeats"],
    ("peak",): ["--barrier-forms"],
    ("plans",): ["--caps", "--json", "--csv", "--suite", "--zoo", "--no-winograd", "--explain", "--router-only", "--pass",
                 "--calibrate"],
    ("shader-stats",): ["--isa", "--expect-isa", "--json", "--algo", "--tile"],
    ("--peak",): ["--barrier-forms"],
    ("--find-fresh",): ["--fresh", "--exhaustive"],
    ("--plan-only",): ["--caps"],
    ("--shader-stats",): ["--expect-isa"],
}
for args, words in helps.items():
    for h in ["--help", "-h"]:
        accepts(list(args) + [h], *words)

if failures:
    print("\n".join(failures))
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
print("vkconv-bench command line: all checks passed")
