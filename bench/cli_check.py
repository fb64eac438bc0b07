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

# Help: the tool and each subcommand, in both forms.
helps = {
    (): ["run", "find", "peak", "plans", "shader-stats", "--device", "--validation", "--suites-dir"],
    ("run",): ["--suite", "--shapes", "--batch", "--dtype", "--layout", "--algo", "--tile", "--workspace-mib", "--calls",
               "--repeats", "--warmup", "--warmup-ms", "--check", "--json", "--csv", "--passes", "--trace", "--peak"],
    ("find",): ["--fresh", "--exhaustive", "--find-fresh", "--check", "--repeats"],
    ("peak",): ["--barrier-forms"],
    ("plans",): ["--caps", "--json", "--csv", "--suite", "--no-winograd"],
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
