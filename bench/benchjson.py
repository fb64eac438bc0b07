"""Shared helpers for the "vkconv-bench/1" JSON format (see docs/bench-json.md).

Used by torch_baseline.py (writer), report.py (reader) and test_report.py.  Stdlib only, so
the report runs anywhere and the baseline needs nothing beyond torch.
"""
from __future__ import annotations

import csv
import json
import math
import os
from datetime import datetime, timezone
from pathlib import Path

SCHEMA = "vkconv-bench/1"
SUITES_DIR = Path(__file__).resolve().parent / "suites"
ZOO_DIR = Path(__file__).resolve().parent / "zoo"

# Columns of bench/suites/*.csv, in order; all but suite/layer are integers.
SHAPE_INT_FIELDS = ("n", "c", "h", "w", "k", "r", "s", "pad_h", "pad_w",
                    "stride_h", "stride_w", "dil_h", "dil_w", "groups")
SHAPE_FIELDS = ("suite", "layer") + SHAPE_INT_FIELDS
# Optional columns of a suite of transposed convolutions (bench/suites/README.md): on a row with
# transposed 1, c/h/w are the input, k the output channels, r/s the kernel of ConvTranspose2d.
TRANSPOSED_FIELDS = ("transposed", "output_pad_h", "output_pad_w")
# The pass a row times (vkconv-bench / torch_baseline.py --pass); rows without "pass" are "fwd".
PASSES = ("fwd", "bwd-data", "bwd-weight")

DTYPES = ("fp32", "tf32", "fp16", "bf16")
LAYOUTS = ("nchw", "nhwc")
CHECKS = ("pass", "fail", "skipped")
DTYPE_BYTES = {"fp32": 4, "tf32": 4, "fp16": 2, "bf16": 2}
# Pass/fail tolerance on max_rel_err (see docs/bench-json.md for its definition).  tf32 and
# bf16 round the operands to 10 and 7 mantissa bits; fp16/bf16 also round the output.
CHECK_TOL = {"fp32": 1e-4, "tf32": 5e-3, "fp16": 5e-3, "bf16": 2e-2}


class SchemaError(ValueError):
    """A document that does not follow vkconv-bench/1; the message names the offending field."""


# ---------------------------------------------------------------------------- shapes / FLOPs

def is_transposed(row) -> bool:
    return bool(row.get("transposed"))


def row_pass(row) -> str:
    return row.get("pass") or "fwd"


def out_hw(row) -> tuple[int, int]:
    """Output height and width (P, Q) of a convolution row (floor division, as PyTorch); of a
    transposed row, ConvTranspose2d's (H−1)·stride − 2·pad + dil·(R−1) + output_pad + 1."""
    if is_transposed(row):
        p = ((row["h"] - 1) * row["stride_h"] - 2 * row["pad_h"] + row["dil_h"] * (row["r"] - 1)
             + row.get("output_pad_h", 0) + 1)
        q = ((row["w"] - 1) * row["stride_w"] - 2 * row["pad_w"] + row["dil_w"] * (row["s"] - 1)
             + row.get("output_pad_w", 0) + 1)
        return p, q
    p = (row["h"] + 2 * row["pad_h"] - row["dil_h"] * (row["r"] - 1) - 1) // row["stride_h"] + 1
    q = (row["w"] + 2 * row["pad_w"] - row["dil_w"] * (row["s"] - 1) - 1) // row["stride_w"] + 1
    return p, q


def conv_flops(row) -> int:
    """2·N·K·(C/groups)·R·S·P·Q: one multiply-add counts as two FLOPs; every pass of a layer counts
    its forward pass's.  A transposed row: 2·N·C·(K/groups)·R·S·H·W (each input element meets
    K/groups filter taps of R·S)."""
    if is_transposed(row):
        return 2 * row["n"] * row["c"] * (row["k"] // row["groups"]) * row["r"] * row["s"] * row["h"] * row["w"]
    p, q = out_hw(row)
    return 2 * row["n"] * row["k"] * (row["c"] // row["groups"]) * row["r"] * row["s"] * p * q


def conv_bytes(row, dtype: str) -> int:
    """Compulsory traffic: input + filter + output elements once each, in the storage type (the
    same tensors for every pass)."""
    p, q = out_hw(row)
    filt = (row["c"] * (row["k"] // row["groups"]) if is_transposed(row)
            else row["k"] * (row["c"] // row["groups"])) * row["r"] * row["s"]
    elems = row["n"] * row["c"] * row["h"] * row["w"] + filt + row["n"] * row["k"] * p * q
    return elems * DTYPE_BYTES[dtype]


def read_shapes(path) -> list[dict]:
    """Rows of a shapes CSV with the integer columns converted (count too: the zoo's files have
    it); unknown extra columns are kept; lines starting with '#' are comments."""
    with open(path, newline="", encoding="utf-8-sig") as f:
        rdr = csv.DictReader(f)
        missing = [c for c in SHAPE_FIELDS if c not in (rdr.fieldnames or [])]
        if missing:
            raise ValueError(f"{path}: missing column(s) {', '.join(missing)}")
        rows = []
        for i, rec in enumerate(rdr, start=2):
            first = rec.get((rdr.fieldnames or [""])[0]) or ""
            if first.lstrip().startswith("#"):
                continue  # a comment line (vkconv-bench's reader skips them too)
            try:
                row = {k: rec[k].strip() for k in rdr.fieldnames if rec.get(k) is not None}
                for k in SHAPE_INT_FIELDS:
                    row[k] = int(row[k])
                if "count" in row:
                    row["count"] = int(row["count"])
                    if row["count"] < 1:
                        raise ValueError(f"count {row['count']} < 1")
                for k in TRANSPOSED_FIELDS:
                    if k in row:
                        row[k] = int(row[k] or 0)
                if row.get("transposed", 0) not in (0, 1):
                    raise ValueError(f"transposed {row['transposed']} is not 0 or 1")
                if not row.get("transposed") and (row.get("output_pad_h") or row.get("output_pad_w")):
                    raise ValueError("output padding on a row that is not transposed")
            except (ValueError, KeyError) as e:
                raise ValueError(f"{path}:{i}: bad row ({e})") from None
            rows.append(row)
    return rows


def shape_key(row) -> tuple:
    """What a measurement depends on: every shape column but suite and layer (and a zoo row's
    count), then transposed and the output padding.  vkconv-bench's shapeKey() orders the same
    columns alike."""
    return tuple(row[k] for k in SHAPE_INT_FIELDS) + tuple(int(row.get(k) or 0) for k in TRANSPOSED_FIELDS)


def zoo_part(rows: list[dict], part: int, parts: int) -> list[dict]:
    """The rows of part `part` (1-based) of `parts`: the distinct shapes sorted, every parts-th
    from the part-th, as vkconv-bench --zoo-part I/N; each shape with all its rows in one part."""
    if parts <= 1:
        return list(rows)
    index = {k: i for i, k in enumerate(sorted({shape_key(r) for r in rows}))}
    return [r for r in rows if index[shape_key(r)] % parts == part - 1]


def parse_zoo_part(text: str) -> tuple[int, int]:
    """'I/N' -> (I, N) with 1 <= I <= N; ValueError otherwise."""
    i, sep, n = text.partition("/")
    if not sep or not i.isdigit() or not n.isdigit() or not 1 <= int(i) <= int(n):
        raise ValueError(f"--zoo-part expects I/N with 1 <= I <= N, got {text!r}")
    return int(i), int(n)


def zoo_models(zoo_dir=ZOO_DIR) -> list[str]:
    return sorted(p.stem for p in Path(zoo_dir).glob("*.csv"))


def suite_csv(name: str, suites_dir=SUITES_DIR) -> Path:
    return Path(suites_dir) / f"{name}.csv"


def all_suites(suites_dir=SUITES_DIR) -> list[str]:
    return sorted(p.stem for p in Path(suites_dir).glob("*.csv"))


# ---------------------------------------------------------------------------- document helpers

def now_utc() -> str:
    """The "created" timestamp: ISO-8601, UTC, second resolution, 'Z' suffix."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def row_key(row) -> tuple:
    """Identity of a row when merging files (algo/config deliberately excluded): a layer's passes
    are different rows."""
    return (row["suite"], row["layer"], row["batch"], row["dtype"], row["layout"], row_pass(row))


def row_ok(row) -> bool:
    """True if the row carries a time (rows for failed runs have "error" and null times)."""
    return row.get("us") is not None


def write(doc, path) -> None:
    validate(doc)  # never write what the reader would reject
    tmp = f"{path}.tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def load(path) -> dict:
    """Read and validate one file; SchemaError messages start with the path."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except json.JSONDecodeError as e:
        raise SchemaError(f"{path}: not JSON: {e}") from None
    try:
        validate(doc)
    except SchemaError as e:
        raise SchemaError(f"{path}: {e}") from None
    return doc


# ---------------------------------------------------------------------------- validation

def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v) -> bool:
    return (_is_int(v) or isinstance(v, float)) and math.isfinite(v)


def _check(obj, where, key, kind, *, nullable=False, optional=False, choices=None):
    if key not in obj:
        if optional:
            return
        raise SchemaError(f"{where}: missing \"{key}\"")
    v = obj[key]
    if v is None:
        if nullable:
            return
        raise SchemaError(f"{where}.{key}: must not be null")
    ok = {"int": _is_int, "num": _is_num, "str": lambda x: isinstance(x, str),
          "bool": lambda x: isinstance(x, bool), "dict": lambda x: isinstance(x, dict),
          "list": lambda x: isinstance(x, list)}[kind](v)
    if not ok:
        raise SchemaError(f"{where}.{key}: expected {kind}, got {type(v).__name__} {v!r:.60}")
    if choices is not None and v not in choices:
        raise SchemaError(f"{where}.{key}: {v!r} is not one of {', '.join(map(repr, choices))}")


def validate(doc) -> None:
    """Raise SchemaError unless doc follows vkconv-bench/1.  Extra keys are allowed everywhere
    (forward compatibility); the listed keys must be present with the listed types."""
    if not isinstance(doc, dict):
        raise SchemaError("top level: expected a JSON object")
    if doc.get("schema") != SCHEMA:
        raise SchemaError(f"schema: expected {SCHEMA!r}, got {doc.get('schema')!r}")
    for key in ("tool", "created", "host"):
        _check(doc, "top level", key, "str")
    try:
        datetime.fromisoformat(doc["created"].replace("Z", "+00:00"))
    except ValueError:
        raise SchemaError(f"created: not an ISO-8601 time: {doc['created']!r}") from None

    _check(doc, "top level", "device", "dict")
    dev = doc["device"]
    for key in ("name", "vendor", "driver", "api_version"):
        _check(dev, "device", key, "str")
    for key in ("vendor_id", "device_id"):
        _check(dev, "device", key, "int", nullable=True)
    _check(dev, "device", "subgroup_sizes", "list", nullable=True)
    sg = dev["subgroup_sizes"]
    if sg is not None and not (len(sg) == 2 and all(_is_int(x) for x in sg) and sg[0] <= sg[1]):
        raise SchemaError(f"device.subgroup_sizes: expected [min, max] integers, got {sg!r}")
    _check(dev, "device", "coopmat", "bool", nullable=True)
    _check(dev, "device", "amd_arch", "str", nullable=True)

    _check(doc, "top level", "library", "dict")
    lib = doc["library"]
    for key in ("name", "version"):
        _check(lib, "library", key, "str")
    for key in ("git", "shader_compiler", "framework"):
        _check(lib, "library", key, "str", nullable=True)

    _check(doc, "top level", "protocol", "dict")
    pro = doc["protocol"]
    for key in ("warmup", "batch", "repeats"):
        _check(pro, "protocol", key, "int")
    _check(pro, "protocol", "statistic", "str")
    _check(pro, "protocol", "timer", "str")
    _check(pro, "protocol", "packed_filters", "bool", optional=True)
    _check(pro, "protocol", "find", "bool", optional=True)

    _check(doc, "top level", "peaks", "dict", optional=True)
    peaks = doc.get("peaks") or {}
    for key in ("fp32_fma_tflops", "fp16_fma_tflops", "bandwidth_gbs", "call_floor_us", "cache_read_gbs",
                "dispatch_us", "slice_loop_tflops"):
        _check(peaks, "peaks", key, "num", optional=True, nullable=True)
    _check(peaks, "peaks", "slice_loop_probe", "str", optional=True)
    _check(peaks, "peaks", "coopmat_tflops", "dict", optional=True, nullable=True)
    for name, v in (peaks.get("coopmat_tflops") or {}).items():
        if not _is_num(v):
            raise SchemaError(f"peaks.coopmat_tflops[{name!r}]: expected num, got {v!r}")

    _check(doc, "top level", "rows", "list")
    seen = {}
    for i, row in enumerate(doc["rows"]):
        _validate_row(row, f"rows[{i}]")
        key = row_key(row) + (row["algo"], row["config"])
        if key in seen:
            raise SchemaError(f"rows[{i}]: duplicates rows[{seen[key]}] "
                              f"(same suite, layer, batch, dtype, layout, pass, algo and config)")
        seen[key] = i


def _validate_find(find, where) -> None:
    """vkconv-bench --find: the candidates findAlgorithms() timed, fastest first, failures last,
    one of them the router's pick."""
    _check(find, where, "from_database", "bool")
    _check(find, where, "wall_ms", "num", nullable=True)
    _check(find, where, "candidates", "list")
    last, failed, routers = 0.0, False, 0
    for i, c in enumerate(find["candidates"]):
        at = f"{where}.candidates[{i}]"
        if not isinstance(c, dict):
            raise SchemaError(f"{at}: expected an object")
        for key in ("algo", "config"):
            _check(c, at, key, "str")
        _check(c, at, "router", "bool")
        _check(c, at, "error", "str", optional=True)
        _check(c, at, "us", "num", nullable="error" in c)
        routers += c["router"]
        if "error" in c:
            failed = True
        elif failed or c["us"] < last:
            raise SchemaError(f"{at}: not in order (timed candidates fastest first, failed ones last)")
        else:
            last = c["us"]
    if routers != 1:
        raise SchemaError(f"{where}: {routers} candidates marked as the router's pick, expected 1")


def _validate_row(row, where) -> None:
    if not isinstance(row, dict):
        raise SchemaError(f"{where}: expected an object")
    for key in ("suite", "layer"):
        _check(row, where, key, "str")
    where = f"{where} ({row['suite']}/{row['layer']})"
    for key in SHAPE_INT_FIELDS + ("batch",):
        _check(row, where, key, "int")
    for key in ("n", "c", "h", "w", "k", "r", "s", "stride_h", "stride_w", "dil_h", "dil_w",
                "groups", "batch"):
        if row[key] < 1:
            raise SchemaError(f"{where}.{key}: must be >= 1, got {row[key]}")
    if row["pad_h"] < 0 or row["pad_w"] < 0:
        raise SchemaError(f"{where}: negative padding")
    if row["n"] != row["batch"]:
        raise SchemaError(f"{where}: n ({row['n']}) must equal batch ({row['batch']})")
    if row["c"] % row["groups"] or row["k"] % row["groups"]:
        raise SchemaError(f"{where}: groups ({row['groups']}) must divide c and k")
    _check(row, where, "pass", "str", optional=True, choices=PASSES)
    _check(row, where, "transposed", "bool", optional=True)
    for key, stride, dil in (("output_pad_h", "stride_h", "dil_h"), ("output_pad_w", "stride_w", "dil_w")):
        _check(row, where, key, "int", optional=True)
        pad = row.get(key, 0)
        if pad and not is_transposed(row):
            raise SchemaError(f"{where}.{key}: output padding on a row that is not transposed")
        if pad < 0 or (pad and pad >= row[stride] and pad >= row[dil]):
            raise SchemaError(f"{where}.{key}: {pad} must be >= 0 and below {stride} or {dil}")
    if min(out_hw(row)) < 1:
        raise SchemaError(f"{where}: empty output {out_hw(row)}")
    _check(row, where, "dtype", "str", choices=DTYPES)
    _check(row, where, "layout", "str", choices=LAYOUTS)
    _check(row, where, "algo", "str")
    _check(row, where, "config", "str")
    _check(row, where, "error", "str", optional=True, nullable=True)
    failed = row.get("error") is not None
    # A row for a run that failed (e.g. out of memory) has "error" and null times.
    for key in ("us", "us_min", "us_max", "tflops"):
        _check(row, where, key, "num", nullable=failed)
    _check(row, where, "gflop", "num")
    _check(row, where, "pct_peak", "num", nullable=True)
    _check(row, where, "check", "str", choices=CHECKS)
    _check(row, where, "max_rel_err", "num", nullable=True)
    _check(row, where, "checked_outputs", "int", nullable=True)
    _check(row, where, "find", "dict", optional=True)
    # The model zoo: how many convolutions of the model (suite) the row stands for.
    _check(row, where, "count", "int", optional=True)
    if row.get("count", 1) < 1:
        raise SchemaError(f"{where}.count: must be >= 1, got {row['count']}")
    if "find" in row:
        _validate_find(row["find"], f"{where}.find")
    if row["us"] is not None:
        if not 0 < row["us_min"] <= row["us"] <= row["us_max"]:
            raise SchemaError(f"{where}: need 0 < us_min <= us <= us_max, got "
                              f"{row['us_min']}, {row['us']}, {row['us_max']}")
    # Consistency checks catch unit slips (ms for µs, FLOP for GFLOP, a missing N or groups);
    # the 1e-3 slack allows values printed with 6 significant digits.
    want = conv_flops(row) / 1e9
    if not math.isclose(row["gflop"], want, rel_tol=1e-3):
        raise SchemaError(f"{where}.gflop: {row['gflop']} does not match the shape ({want:.6g})")
    if row["us"] is not None and not math.isclose(row["tflops"], want * 1e3 / row["us"],
                                                  rel_tol=1e-3):
        raise SchemaError(f"{where}.tflops: {row['tflops']} is not gflop / us "
                          f"({want * 1e3 / row['us']:.6g})")
