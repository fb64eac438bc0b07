#!/usr/bin/env python3
"""Time torch.nn.functional.conv2d (cuDNN, or MIOpen on ROCm builds) on the vkconv shape suites
(or the model zoo: --zoo, --zoo-part I/N, as vkconv-bench takes them) and write a "vkconv-bench/1" JSON file (docs/bench-json.md) that report.py compares with vkconv.

--pass bwd-data / bwd-weight times the layer's gradients instead, dx or dw alone, through
torch.ops.aten.convolution_backward (what autograd and torch.nn.grad.conv2d_input/conv2d_weight
call; cuDNN's backward-data / backward-filter).  Rows of a transposed suite (bench/suites/README.md)
run F.conv_transpose2d, and their backward passes the same op with transposed=True.  No bias
or activation: compare with vkconv-bench runs without --epilogue.

Protocol, the one of the anchors in shared/anchors (cuDNN on an H200):
  cudnn.benchmark on; operands from torch.randn; 3 warm-up calls; a CUDA graph of --calls
  (20) back-to-back calls; --repeats (7) replays each timed with CUDA events;
  time per conv = event time / calls; median (min, max) over the replays.
"""
from __future__ import annotations

import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchjson as bj  # noqa: E402

WARMUP = 3
VENDOR_IDS = {"NVIDIA": 0x10DE, "AMD": 0x1002}

torch = None  # imported in main(), so --help and the pure helpers work without torch
F = None


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------- metadata

def decode_cudnn_version(v: int) -> str:
    """cuDNN >= 9 encodes major*10000 + minor*100 + patch (91900 -> 9.19.0); cuDNN 8 and
    older major*1000 + minor*100 + patch (8907 -> 8.9.7).  MIOpen through torch follows the
    first form."""
    if v >= 10000:
        return f"{v // 10000}.{v // 100 % 100}.{v % 100}"
    return f"{v // 1000}.{v // 100 % 10}.{v % 100}"


def amd_arch(gcn_arch: str | None) -> str | None:
    """Family of a gfx target ("gfx1010:xnack-" -> RDNA1), the names vkconv's DeviceCaps uses."""
    m = re.match(r"gfx(\d+)([0-9a-f]{2})", gcn_arch or "")
    if not m:
        return None
    major, minor = int(m.group(1)), m.group(2)
    if major == 10:
        return "RDNA2" if minor[0] == "3" else "RDNA1"
    if major == 11:
        return "RDNA3"
    if major == 12:
        return "RDNA4"
    if major == 9:
        return {"08": "CDNA1", "0a": "CDNA2", "40": "CDNA3", "41": "CDNA3", "42": "CDNA3",
                "50": "CDNA4"}.get(minor, "GCN")
    return "GCN" if major in (7, 8) else None


def nvidia_smi(field: str) -> str | None:
    """One --query-gpu field of the current device, or None where nvidia-smi is missing."""
    idx = os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0] or "0"
    try:
        out = subprocess.run(["nvidia-smi", f"--query-gpu={field}", "--format=csv,noheader",
                              "-i", idx], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip().splitlines()[0].strip() if out.returncode == 0 and out.stdout.strip() else None


def device_info() -> dict:
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    hip = torch.version.hip
    vendor = "AMD" if hip else "NVIDIA"
    warp = getattr(props, "warp_size", None) or (None if hip else 32)
    info = {
        "name": props.name, "vendor": vendor, "vendor_id": VENDOR_IDS[vendor], "device_id": None,
        "driver": None, "api_version": f"HIP {hip}" if hip else f"CUDA {torch.version.cuda}",
        "subgroup_sizes": [warp, warp] if warp else None, "coopmat": None,
        "amd_arch": amd_arch(getattr(props, "gcnArchName", None)) if hip else None,
        "compute_capability": f"{props.major}.{props.minor}",
        "multiprocessors": props.multi_processor_count,
        "memory_gib": round(props.total_memory / 2**30, 1),
    }
    if not hip:
        # The driver version and the PCI device ID (upper half of "0x233510DE") are not in
        # torch's properties; nvidia-smi has both.
        info["driver"] = nvidia_smi("driver_version")
        pci = nvidia_smi("pci.device_id")
        if pci and pci.lower().startswith("0x"):
            info["device_id"] = int(pci, 16) >> 16
    info["driver"] = info["driver"] or (f"HIP {hip}" if hip else f"CUDA runtime {torch.version.cuda}")
    return info


def library_info() -> dict:
    v = torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None
    return {"name": "miopen" if torch.version.hip else "cudnn",
            "version": decode_cudnn_version(v) if v else "unknown",
            "git": None, "shader_compiler": None,
            "framework": f"torch {torch.__version__.split('+')[0]}"}


# ---------------------------------------------------------------------------- plan

def build_plan(args) -> list[tuple[str, list[dict]]]:
    """(suite, layers) in order; several --shapes files of one suite are concatenated.  --zoo:
    the zoo's models (every one, or the listed), each model a suite; --zoo-part keeps one slice
    of the distinct shapes, as vkconv-bench --zoo-part does."""
    files = [Path(p) for p in args.shapes]
    if getattr(args, "zoo", None) is not None:
        models = [m for v in args.zoo for m in v.split(",") if m] or bj.zoo_models(args.zoo_dir)
        if not models:
            sys.exit(f"torch_baseline: no model zoo: {args.zoo_dir} holds no *.csv (bench/zoo/make_zoo.py)")
        for name in dict.fromkeys(models):
            p = Path(args.zoo_dir) / f"{name}.csv"
            if not p.exists():
                sys.exit(f"torch_baseline: no zoo model {name!r} ({p} missing); "
                         f"known: {', '.join(bj.zoo_models(args.zoo_dir)) or 'none'}")
            files.append(p)
        names = []
    else:
        names = args.suite or ([] if files else bj.all_suites(args.suites_dir))
    for name in names:
        p = bj.suite_csv(name, args.suites_dir)
        if not p.exists():
            sys.exit(f"torch_baseline: no suite {name!r} ({p} missing); "
                     f"known: {', '.join(bj.all_suites(args.suites_dir)) or 'none'}")
        files.append(p)
    if not files:
        sys.exit(f"torch_baseline: no shapes: {args.suites_dir} holds no *.csv; use --shapes")
    # (suite, layer): the first one wins; without --batch each row runs at its own n, so a layer
    # listed at two batches keeps both rows (as vkconv-bench does).
    suites: dict[str, dict[tuple, dict]] = {}
    for p in files:
        for row in bj.read_shapes(p):
            key = (row["layer"], None if getattr(args, "batch", None) else row["n"])
            suites.setdefault(row["suite"], {}).setdefault(key, row)
    rows = [r for layers in suites.values() for r in layers.values()]
    part, parts = getattr(args, "zoo_part_n", (1, 1))
    keep = {id(r) for r in bj.zoo_part(rows, part, parts)}
    plan = []
    for suite, layers in suites.items():
        layers = [r for r in layers.values() if id(r) in keep]
        if layers:
            plan.append((suite, layers[: args.limit] if args.limit else layers))
    return plan


def check_indices(n: int, count: int) -> set[int]:
    """Evenly spread layer indices to verify (first, last and between); count 0 = all."""
    if count <= 0 or count >= n:
        return set(range(n))
    if count == 1:
        return {0}
    return {round(i * (n - 1) / (count - 1)) for i in range(count)}


def make_jobs(plan, batches, configs, small_only, check_layers):
    """(suite, layer index, shape, batch, dtype, layout, verify) for every timed row.  A batch of
    None is each shape's own n (shape files whose rows carry their batch, e.g. bench/cases/);
    suites in small_only run at no batch above 1; check_layers None: verify nothing."""
    jobs = []
    for suite, layers in plan:
        for batch in batches:
            if batch is not None and batch > 1 and suite in small_only:
                log(f"  {suite}: batch {batch} skipped (--skip-large-batch-suites)")
                continue
            verify = check_indices(len(layers), check_layers) if check_layers is not None else set()
            for dtype, layout in configs:
                jobs += [(suite, i, s, batch or s["n"], dtype, layout, i in verify) for i, s in enumerate(layers)]
    return jobs


# ---------------------------------------------------------------------------- measuring

TORCH_DTYPES = {}  # filled in main()


def set_tf32(on: bool) -> None:
    torch.backends.cudnn.allow_tf32 = on
    torch.backends.cuda.matmul.allow_tf32 = on


def conv_args(shape) -> dict:
    return dict(stride=(shape["stride_h"], shape["stride_w"]),
                padding=(shape["pad_h"], shape["pad_w"]),
                dilation=(shape["dil_h"], shape["dil_w"]), groups=shape["groups"])


def output_padding(shape) -> tuple[int, int]:
    return (shape.get("output_pad_h", 0) or 0, shape.get("output_pad_w", 0) or 0)


def operand_shapes(shape, batch) -> dict[str, tuple]:
    """The row's tensors in its own terms: x its input, w its weight (ConvTranspose2d's is
    [C, K/groups, R, S]), y its output (dy for the backward passes)."""
    g = shape["groups"]
    p, q = bj.out_hw(shape)
    w = ((shape["c"], shape["k"] // g) if bj.is_transposed(shape) else (shape["k"], shape["c"] // g))
    return {"x": (batch, shape["c"], shape["h"], shape["w"]), "w": w + (shape["r"], shape["s"]),
            "y": (batch, shape["k"], p, q)}


def backward_args(shape, pss: str) -> tuple:
    """aten.convolution_backward's arguments after (grad_output, input, weight): bias_sizes,
    stride, padding, dilation, transposed, output_padding, groups, output_mask (dx or dw alone)."""
    kw = conv_args(shape)
    mask = {"bwd-data": [True, False, False], "bwd-weight": [False, True, False]}[pss]
    return (None, list(kw["stride"]), list(kw["padding"]), list(kw["dilation"]), bj.is_transposed(shape),
            list(output_padding(shape)), kw["groups"], mask)


def pass_call(shape, pss: str):
    """fn(x, w, dy) -> the pass's result: y, dx or dw."""
    kw = conv_args(shape)
    if pss == "fwd":
        if bj.is_transposed(shape):
            return lambda x, w, dy: F.conv_transpose2d(x, w, stride=kw["stride"], padding=kw["padding"],
                                                       output_padding=output_padding(shape),
                                                       groups=kw["groups"], dilation=kw["dilation"])
        return lambda x, w, dy: F.conv2d(x, w, **kw)
    args = backward_args(shape, pss)
    index = 0 if pss == "bwd-data" else 1
    return lambda x, w, dy: torch.ops.aten.convolution_backward(dy, x, w, *args)[index]


def replay_times(graph, calls: int, repeats: int) -> list[float]:
    """Per-call us of `repeats` replays of a graph of `calls` calls, each timed with CUDA events."""
    times = []
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / calls)
    return times


def time_layer(shape, batch, dtype, layout, calls, repeats, verify, pss="fwd"):
    """Returns (times_us list, (max_rel_err, n_outputs) or None)."""
    dev = torch.device("cuda")
    tdt = TORCH_DTYPES[dtype]
    fmt = torch.channels_last if layout == "nhwc" else torch.contiguous_format
    dims = operand_shapes(shape, batch)
    x = torch.randn(*dims["x"], device=dev, dtype=tdt).to(memory_format=fmt)
    w = torch.randn(*dims["w"], device=dev, dtype=tdt).to(memory_format=fmt)
    # dy only for the backward passes (the forward pass's output is the graph's own).
    dy = torch.randn(*dims["y"], device=dev, dtype=tdt).to(memory_format=fmt) if pss != "fwd" else None
    call = pass_call(shape, pss)

    # Warm up on a side stream, as torch.cuda.graphs recommends before capture; with
    # cudnn.benchmark the first call also picks the algorithm the graph will then use.
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(WARMUP):
            y = call(x, w, dy)
    torch.cuda.current_stream().wait_stream(side)
    del y

    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        # Each call's output is freed by the next assignment, so the graph's private pool
        # recycles it; the last one stays alive as the static output read by --check.
        for _ in range(calls):
            y = call(x, w, dy)

    times = replay_times(graph, calls, repeats)

    err = None
    if verify:
        # Reference: the same (already rounded) operands in float64, so only the library's
        # arithmetic is judged.  Normalised by the largest |output|: per-element relative
        # error is meaningless where outputs cancel to ~0.
        try:
            ref = call(x.double().contiguous(), w.double().contiguous(),
                       None if dy is None else dy.double().contiguous())
            diff = (y.double() - ref).abs().max().item()
            scale = ref.abs().max().item()
            err = (diff / scale if scale > 0 else diff, y.numel())
        except Exception as e:  # noqa: BLE001 - a failed check must not lose the timing
            if not is_oom(e):
                raise
            log("  check skipped: float64 reference out of memory")
    return times, err


def call_floor(calls: int) -> float:
    """Median us per call of a 4 KiB device copy, one kernel, captured `calls` times in a CUDA
    graph and replayed as the layers are: what one call costs at least on this stack (vkconv-bench
    peak measures the same for a Vulkan dispatch behind its barrier)."""
    x = torch.randn(1024, device="cuda")
    y = torch.empty_like(x)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(calls):
            y.copy_(x)
    for _ in range(200):  # ~0.1 s: the clock comes up from the idle before
        graph.replay()
    times = replay_times(graph, calls, 35)
    if not torch.equal(x, y):
        raise RuntimeError("call floor: the copy is wrong")
    return statistics.median(times)


def is_oom(e: BaseException) -> bool:
    return isinstance(e, getattr(torch.cuda, "OutOfMemoryError", ())) or "out of memory" in str(e)


def error_text(e: BaseException) -> str:
    if is_oom(e):
        return "out of memory"
    first = str(e).strip().splitlines()[0] if str(e).strip() else ""
    return f"{type(e).__name__}: {first}"[:200]


# ---------------------------------------------------------------------------- output

def fmt_num(v: float) -> str:
    return f"{v:.0f}" if v >= 1000 else f"{v:.1f}" if v >= 100 else f"{v:.2f}" if v >= 1 else f"{v:.3f}"


HEADER = (f"{'suite':<15} {'layer':<24} {'batch':>5} {'dtype':<5} {'layout':<6} {'GFLOP':>8} "
          f"{'us':>9} {'min':>9} {'max':>9} {'TFLOP/s':>8}  check")


def table_line(r) -> str:
    head = (f"{r['suite']:<15.15} {r['layer']:<24.24} {r['batch']:>5} {r['dtype']:<5} "
            f"{r['layout']:<6} {fmt_num(r['gflop']):>8} ")
    if not bj.row_ok(r):
        return head + f"{'—':>9} {'':>9} {'':>9} {'':>8}  {r['error']}"
    chk = r["check"] if r["max_rel_err"] is None else f"{r['check']} ({r['max_rel_err']:.1e})"
    return head + (f"{fmt_num(r['us']):>9} {fmt_num(r['us_min']):>9} {fmt_num(r['us_max']):>9} "
                   f"{fmt_num(r['tflops']):>8}  {chk}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shapes", action="append", default=[], metavar="FILE.csv",
                    help="shapes CSV to run (repeatable)")
    ap.add_argument("--suite", action="append", default=[], metavar="NAME",
                    help="suite in --suites-dir (repeatable; default: all there, unless --shapes)")
    ap.add_argument("--suites-dir", default=str(bj.SUITES_DIR), help="default: %(default)s")
    ap.add_argument("--zoo", action="append", nargs="?", const="", metavar="MODEL,...",
                    help="the model zoo in --zoo-dir: every model, or the listed ones (comma-separated, "
                    "repeatable); identical shapes are timed once and copied to every row that has them")
    ap.add_argument("--zoo-dir", default=str(bj.ZOO_DIR), help="default: %(default)s")
    ap.add_argument("--zoo-part", metavar="I/N",
                    help="with --zoo: the I-th of N slices of the distinct shapes (as vkconv-bench)")
    ap.add_argument("--batch", action="append", type=int, metavar="N",
                    help="overrides each shape's n (repeatable; default: the shape's own n, as vkconv-bench)")
    ap.add_argument("--dtype", action="append", choices=bj.DTYPES, help="repeatable; default fp32")
    ap.add_argument("--layout", action="append", choices=bj.LAYOUTS, help="repeatable; default nchw")
    ap.add_argument("--config", action="append", default=[], metavar="DTYPE_LAYOUT",
                    help="one dtype/layout pair, e.g. fp16_nhwc (repeatable; instead of the "
                    "--dtype x --layout product)")
    ap.add_argument("--pass", dest="pass_", choices=bj.PASSES, default="fwd",
                    help="the pass timed: fwd (default), bwd-data (dx) or bwd-weight (dw), as vkconv-bench --pass")
    ap.add_argument("--json", metavar="OUT", help="write the vkconv-bench/1 JSON here")
    ap.add_argument("--skip-large-batch-suites", default="sd_vae_decoder,rdna1_matrix",
                    metavar="S1,S2", help="suites run at batch 1 only, as the anchors do "
                    "(default: %(default)s; '' for none)")
    ap.add_argument("--calls", type=int, default=20, help="convs per graph/timed batch (default 20)")
    ap.add_argument("--repeats", type=int, default=7, help="timed graph replays (default 7)")
    ap.add_argument("--check", action="store_true",
                    help="verify some layers per suite and config against a float64 conv")
    ap.add_argument("--check-layers", type=int, default=3, metavar="N",
                    help="layers verified per suite and config with --check, spread evenly "
                    "(default 3; 0 = all)")
    ap.add_argument("--limit", type=int, default=0, metavar="N",
                    help="only the first N layers of each suite (smoke tests)")
    args = ap.parse_args(argv)
    batches = args.batch or [None]  # None: each shape's own n
    configs = [(d, l) for d in args.dtype or ["fp32"] for l in args.layout or ["nchw"]]
    if args.config:
        if args.dtype or args.layout:
            ap.error("--config replaces --dtype/--layout; give one or the other")
        configs = []
        for c in args.config:
            d, _, l = c.partition("_")
            if d not in bj.DTYPES or l not in bj.LAYOUTS:
                ap.error(f"--config {c!r}: expected DTYPE_LAYOUT with DTYPE in {bj.DTYPES} "
                         f"and LAYOUT in {bj.LAYOUTS}")
            configs.append((d, l))
    configs = list(dict.fromkeys(configs))
    small_only = {s.strip() for s in args.skip_large_batch_suites.split(",") if s.strip()}
    if args.zoo is not None and (args.suite or args.shapes):
        ap.error("--zoo and --suite / --shapes: run the zoo and the suites separately")
    if args.zoo_part is not None and args.zoo is None:
        ap.error("--zoo-part splits the zoo: give --zoo too")
    try:
        args.zoo_part_n = bj.parse_zoo_part(args.zoo_part) if args.zoo_part else (1, 1)
    except ValueError as e:
        ap.error(str(e))
    if args.calls < 1 or args.repeats < 1 or any(b is not None and b < 1 for b in batches):
        ap.error("--calls, --repeats and --batch must be >= 1")
    plan = build_plan(args)

    global torch, F
    import torch as _torch
    import torch.nn.functional as _F
    torch, F = _torch, _F
    if not torch.cuda.is_available():
        sys.exit("torch_baseline: torch sees no CUDA/ROCm device")
    TORCH_DTYPES.update(fp32=torch.float32, tf32=torch.float32, fp16=torch.float16, bf16=torch.bfloat16)
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.enabled = True

    doc = {"schema": bj.SCHEMA, "tool": "torch-baseline", "created": bj.now_utc(),
           "host": socket.gethostname(), "device": device_info(), "library": library_info(),
           "protocol": {"warmup": WARMUP, "batch": args.calls, "repeats": args.repeats,
                        "statistic": "median",
                        "timer": "hip-events" if torch.version.hip else "cuda-events"},
           "peaks": {}, "rows": []}
    if args.zoo is not None:
        doc["zoo"] = {"models": len(plan), "part": args.zoo_part_n[0], "parts": args.zoo_part_n[1]}
    d, lib = doc["device"], doc["library"]
    log(f"torch_baseline: {d['name']} ({d['driver']}), {lib['name']} {lib['version']}, "
        f"{lib['framework']}; {args.pass_}; {args.calls} calls x {args.repeats} replays")
    doc["peaks"]["call_floor_us"] = call_floor(args.calls)
    log(f"torch_baseline: call floor {doc['peaks']['call_floor_us']:.2f} us (a 4 KiB copy kernel in the graph)")

    jobs = make_jobs(plan, batches, configs, small_only, args.check_layers if args.check else None)

    # The zoo: a shape already timed (at this batch, dtype and layout) is copied, not timed again.
    zoo = args.zoo is not None
    timed: dict[tuple, dict] = {}
    if zoo:
        distinct = {(bj.shape_key(s), b, d, l) for _, _, s, b, d, l, _ in jobs}
        log(f"torch_baseline: zoo: {len(plan)} models, {len(jobs)} rows, {len(distinct)} distinct shapes to time")

    print(HEADER, flush=True)
    t0 = time.monotonic()
    group, group_rows = None, []
    for j, (suite, i, shape, batch, dtype, layout, verify) in enumerate(jobs, 1):
        if (suite, batch, dtype, layout) != group:
            print_totals(group_rows)
            if args.json and group_rows:
                bj.write(doc, args.json)  # keep what is done if the run is cut short
            group, group_rows = (suite, batch, dtype, layout), []
        if zoo and (bj.shape_key(shape), batch, dtype, layout) in timed:
            row = dict(timed[(bj.shape_key(shape), batch, dtype, layout)], suite=suite, layer=shape["layer"],
                       count=shape.get("count", 1))
            doc["rows"].append(row)
            group_rows.append(row)
            continue
        set_tf32(dtype == "tf32")
        row = {k: shape[k] for k in bj.SHAPE_FIELDS}
        if bj.is_transposed(shape):
            row.update(transposed=True, output_pad_h=output_padding(shape)[0], output_pad_w=output_padding(shape)[1])
        if zoo:
            row["count"] = shape.get("count", 1)
        row.update(n=batch, batch=batch, dtype=dtype, layout=layout, algo=lib["name"], config="", **{"pass": args.pass_})
        row["gflop"] = bj.conv_flops(row) / 1e9
        row.update(us=None, us_min=None, us_max=None, tflops=None, pct_peak=None,
                   check="skipped", max_rel_err=None, checked_outputs=None)
        try:
            times, err = time_layer(shape, batch, dtype, layout, args.calls, args.repeats, verify, args.pass_)
            row.update(us=statistics.median(times), us_min=min(times), us_max=max(times))
            row["tflops"] = row["gflop"] * 1e3 / row["us"]
            if err:
                row["max_rel_err"], row["checked_outputs"] = err
                row["check"] = "pass" if err[0] <= bj.CHECK_TOL[dtype] else "fail"
        except Exception as e:  # noqa: BLE001 - one bad layer must not end a long run
            row["error"] = error_text(e)
        if "error" in row:
            # Outside the except block, so the traceback no longer pins the layer's tensors.
            try:
                torch.cuda.synchronize()
                torch.cuda.empty_cache()
            except Exception as e:  # noqa: BLE001
                log(f"  device unusable after the failure ({error_text(e)}); later layers may fail too")
        doc["rows"].append(row)
        group_rows.append(row)
        if zoo:
            timed[(bj.shape_key(shape), batch, dtype, layout)] = row
        print(table_line(row), flush=True)
        log(f"[{j}/{len(jobs)}] {suite}/{shape['layer']} b{batch} {dtype} {layout}: "
            f"{'%.2f us' % row['us'] if bj.row_ok(row) else row['error']}  "
            f"(elapsed {time.monotonic() - t0:.0f} s)")
    print_totals(group_rows)

    if args.json:
        bj.write(doc, args.json)
        log(f"torch_baseline: wrote {len(doc['rows'])} rows to {args.json}")
    bad = [r for r in doc["rows"] if r["check"] == "fail"]
    if bad:
        log(f"torch_baseline: {len(bad)} row(s) failed --check")
    return 1 if bad else 0


def print_totals(rows) -> None:
    ok = [r for r in rows if bj.row_ok(r)]
    if not ok:
        return
    # A zoo row stands for `count` identical convolutions of its model.
    us = sum(r.get("count", 1) * r["us"] for r in ok)
    tflops = sum(r.get("count", 1) * r["gflop"] for r in ok) * 1e3 / us
    missing = f", {len(rows) - len(ok)} failed" if len(ok) < len(rows) else ""
    print(f"{'':<15} {'TOTAL':<24} {'':>5} {'':<5} {'':<6} {'':>8} {fmt_num(us):>9} "
          f"{'':>9} {'':>9} {fmt_num(tflops):>8}  ({len(ok)} layers{missing})\n", flush=True)


if __name__ == "__main__":
    sys.exit(main())
