#!/usr/bin/env python3
"""vkconv-bench --pass (the bench_backward test): every pass of bench/cases/backward_check.csv
(strided, grouped and dilated convolutions, transposed ones with output padding and a 1-D row)
is timed and checked against the float64 references with the validation layer: the forward pass
through the router in fp32 and fp16, NCHW and NHWC; the backward passes with --algo all in fp32
NCHW and fp16 NHWC (every backward kernel's own cases are the unit tests'); the
JSON rows carry their pass and transposed fields and validate (bench/benchjson.py); the backward passes plan offline for every layer of the training suites
(ResNet-50, the RetinaNet head) and the transposed suite; find times every pass, transposed rows
included; packed filters run for the passes that read the filter; the flags that do not combine
are refused.

  python3 bench/backward_check.py build/bench/vkconv-bench bench/cases/backward_check.csv
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import benchjson as bj  # noqa: E402

BENCH, SHAPES = sys.argv[1], sys.argv[2]
H200 = os.path.join(HERE, "profiles", "nvidia_h200.json")
failures = []


def run(args, timeout=600):
    p = subprocess.run([BENCH] + args, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


layers = [r["layer"] for r in bj.read_shapes(SHAPES)]
with tempfile.TemporaryDirectory() as tmp:
    for pss in bj.PASSES:
        # The forward pass (every forward kernel is the forward tests') through the router in all four
        # configurations; every backward algorithm in two of them (each configuration costs its
        # pipelines' compiles).
        if pss == "fwd":
            runs = [("auto", ["--dtype", "fp32", "--dtype", "fp16", "--layout", "nchw", "--layout", "nhwc"])]
            want = {(l, d, lay) for l in layers for d in ("fp32", "fp16") for lay in ("nchw", "nhwc")}
        else:
            runs = [("all", ["--dtype", "fp32", "--layout", "nchw"]), ("all", ["--dtype", "fp16", "--layout", "nhwc"])]
            want = {(l, d, lay) for l in layers for d, lay in (("fp32", "nchw"), ("fp16", "nhwc"))}
        rows = []
        for i, (algo, config) in enumerate(runs):
            js = os.path.join(tmp, f"{pss}.{i}.json")
            rc, out, err = run(["run", "--shapes", SHAPES, "--pass", pss, "--algo", algo, "--check", "--validation",
                                "--epilogue", "bias"] + config + ["--warmup", "1", "--warmup-ms", "0", "--calls", "2",
                                                                  "--repeats", "2", "--json", js])
            if rc != 0 or " 0 failed" not in out or "validation: no messages" not in out:
                failures.append(f"--pass {pss} {config}: exit {rc}: {(out + err).strip()[-600:]}")
                continue
            try:
                rows += bj.load(js)["rows"]
            except (OSError, bj.SchemaError) as e:
                failures.append(f"--pass {pss}: {e}")
        # Every layer in each configuration, checked; a bias only where the pass has one.
        got = {(r["layer"], r["dtype"], r["layout"]) for r in rows}
        if got != want:
            failures.append(f"--pass {pss}: rows for {sorted(want - got)} missing")
        for r in rows:
            where = f"--pass {pss} {r['layer']} {r['dtype']} {r['layout']} {r['algo']}"
            if r.get("pass") != pss or r["check"] != "pass" or not r["checked_outputs"]:
                failures.append(f"{where}: pass {r.get('pass')}, check {r['check']}")
            if r.get("transposed", False) != r["layer"].startswith("up_"):
                failures.append(f"{where}: transposed {r.get('transposed')}")
            epilogue = "bias" if pss == "fwd" or (pss == "bwd-weight" and not r.get("transposed")) else "none"
            if r["epilogue"] != epilogue:
                failures.append(f"{where}: epilogue {r['epilogue']}, expected {epilogue}")

# Training suites and the transposed suite: every backward row plans (offline, the H200's profile).
for pss in ("bwd-data", "bwd-weight"):
    rc, out, err = run(["plans", "--caps", H200, "--suite", "resnet50", "--suite", "retinanet_head", "--suite",
                        "transposed_decoders", "--pass", pss, "--batch", "1", "--batch", "32", "--dtype", "fp16",
                        "--dtype", "fp32", "--layout", "nhwc", "--layout", "nchw"])
    if rc != 0 or ", 0 failed" not in out or "skipped" in out:
        failures.append(f"plans --pass {pss}: exit {rc}: {(out + err).strip()[-400:]}")

# find times a backward pass's algorithms as it does the forward pass's, and a transposed row's
# own plan (its forward pass) with its epilogue: every row runs its fastest timed candidate.
# (The forward pass on the transposed rows only: the forward rows' find is bench_find's.)
with tempfile.TemporaryDirectory() as tmp:
    transposed_rows = os.path.join(tmp, "transposed.csv")
    with open(SHAPES) as src, open(transposed_rows, "w") as dst:
        lines = src.read().splitlines()
        dst.write("\n".join([lines[0]] + [l for l in lines[1:] if l.split(",")[1].startswith("up_")]) + "\n")
    for pss in bj.PASSES:
        js = os.path.join(tmp, f"find_{pss}.json")
        rc, out, err = run(["find", "--shapes", transposed_rows if pss == "fwd" else SHAPES, "--pass", pss,
                            "--epilogue", "bias", "--check", "--validation", "--json", js])
        if rc != 0:
            failures.append(f"find --pass {pss}: exit {rc}: {(out + err).strip()[-400:]}")
            continue
        for r in bj.load(js)["rows"]:
            cands = [c for c in r.get("find", {}).get("candidates", []) if "error" not in c]
            if not cands or (r["algo"], r["config"]) != (cands[0]["algo"], cands[0]["config"]):
                failures.append(f"find --pass {pss} {r['layer']}: ran {r['algo']} {r['config']}, timed {cands[:1]}")

# Packed filters (constant weights): a transposed row's own plan and backward-data read the flipped
# filter or the phases' sub-filters packed once, checked (every algorithm packed: the kernel tests).
for pss in ("fwd", "bwd-data"):
    rc, out, err = run(["run", "--shapes", SHAPES, "--pass", pss, "--packed-filters", "--check", "--validation",
                        "--dtype", "fp16", "--layout", "nhwc", "--warmup", "1", "--warmup-ms", "0", "--calls", "1",
                        "--repeats", "1"])
    if rc != 0 or " 0 failed" not in out or "validation: no messages" not in out:
        failures.append(f"--packed-filters --pass {pss}: exit {rc}: {(out + err).strip()[-600:]}")

# Refused: an unknown pass; packed filters of backward-weight (it writes the filter).
for args, word in [(["--pass", "bwd"], "--pass"),
                   (["--shapes", SHAPES, "--packed-filters", "--pass", "bwd-weight"], "--packed-filters")]:
    rc, out, err = run(args)
    if rc != 2 or word not in err:
        failures.append(f"{args}: expected exit 2 naming {word}, got exit {rc}: {err.strip()[:300]}")

if failures:
    print("\n".join(failures))
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
print("vkconv-bench --pass: every pass checked, the suites' backward passes plan")
