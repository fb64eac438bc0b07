#!/usr/bin/env python3
"""Self-test of bench/benchjson.py, bench/report.py and torch_baseline.py's torch-free helpers.

  python3 bench/test_report.py        (plain unittest; no torch, no pytest)
"""
from __future__ import annotations

import copy
import importlib.util
import json
import math
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import benchjson as bj  # noqa: E402
import torch_baseline as tb  # noqa: E402  (imports no torch at module level)

SHAPES = {  # c, h, w, k, r, s, pad, stride, groups
    "conv3x3": (64, 56, 56, 64, 3, 3, 1, 1, 1),
    "conv1x1": (256, 28, 28, 512, 1, 1, 0, 2, 1),
    "dw3x3": (32, 112, 112, 32, 3, 3, 1, 1, 32),
    "up4x4": (512, 4, 4, 256, 4, 4, 1, 2, 1),  # transposed (DCGAN): 4x4 -> 8x8
}
TRANSPOSED = {"up4x4"}


def make_row(layer, us, *, batch=1, dtype="fp16", layout="nhwc", algo="cudnn", config="",
             suite="toy", error=None, pss=None):
    c, h, w, k, r, s, pad, stride, groups = SHAPES[layer]
    row = dict(suite=suite, layer=layer, n=batch, c=c, h=h, w=w, k=k, r=r, s=s, pad_h=pad,
               pad_w=pad, stride_h=stride, stride_w=stride, dil_h=1, dil_w=1, groups=groups,
               batch=batch, dtype=dtype, layout=layout, algo=algo, config=config)
    if layer in TRANSPOSED:
        row["transposed"] = True
    if pss is not None:
        row["pass"] = pss
    row["gflop"] = bj.conv_flops(row) / 1e9
    if error:
        row.update(us=None, us_min=None, us_max=None, tflops=None, error=error)
    else:
        row.update(us=us, us_min=us * 0.98, us_max=us * 1.05, tflops=row["gflop"] * 1e3 / us)
    row.update(pct_peak=None, check="skipped", max_rel_err=None, checked_outputs=None)
    return row


def make_doc(library, rows, *, tool="torch-baseline", device="NVIDIA H200", peaks=None):
    return {
        "schema": bj.SCHEMA, "tool": tool, "created": "2026-11-21T10:00:00Z", "host": "test",
        "device": {"name": device, "vendor": "NVIDIA", "vendor_id": 0x10DE, "device_id": 0x2335,
                   "driver": "580.159.04", "api_version": "CUDA 13.0", "subgroup_sizes": [32, 32],
                   "coopmat": None, "amd_arch": None},
        "library": {"name": library, "version": "9.19.0", "git": None, "shader_compiler": None,
                    "framework": "torch 2.11.0" if library == "cudnn" else None},
        "protocol": {"warmup": 3, "batch": 20, "repeats": 7, "statistic": "median",
                     "timer": "cuda-events"},
        "peaks": peaks or {},
        "rows": rows,
    }


def table_rows(md: str, heading: str) -> dict[str, list[str]]:
    """Rows of the markdown table under '## heading', keyed by their first cell."""
    section = md.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    out = {}
    for line in section.splitlines():
        if line.startswith("| ") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            out[cells[0]] = cells
    return out


class Flops(unittest.TestCase):
    def test_resnet_conv1(self):
        row = dict(n=1, c=3, h=224, w=224, k=64, r=7, s=7, pad_h=3, pad_w=3, stride_h=2,
                   stride_w=2, dil_h=1, dil_w=1, groups=1)
        self.assertEqual(bj.out_hw(row), (112, 112))
        self.assertEqual(bj.conv_flops(row), 2 * 64 * 3 * 49 * 112 * 112)
        self.assertEqual(bj.conv_bytes(row, "fp16"), 2 * (3 * 224 * 224 + 64 * 3 * 49 + 64 * 112 * 112))

    def test_dilation_groups(self):
        row = dict(n=2, c=32, h=10, w=9, k=64, r=3, s=3, pad_h=0, pad_w=2, stride_h=1,
                   stride_w=3, dil_h=2, dil_w=2, groups=4)
        self.assertEqual(bj.out_hw(row), (6, 3))  # (10-4-1)/1+1, (9+4-4-1)//3+1
        self.assertEqual(bj.conv_flops(row), 2 * 2 * 64 * 8 * 9 * 6 * 3)


    def test_transposed(self):
        dcgan = dict(n=1, c=512, h=4, w=4, k=256, r=4, s=4, pad_h=1, pad_w=1, stride_h=2, stride_w=2,
                     dil_h=1, dil_w=1, groups=1, transposed=1)
        self.assertEqual(bj.out_hw(dcgan), (8, 8))
        # Each input element meets K/groups x R x S taps: the forward convolution's count.
        self.assertEqual(bj.conv_flops(dcgan), 2 * 512 * 256 * 16 * 4 * 4)
        fwd = dict(dcgan, c=256, h=8, w=8, k=512, transposed=0)
        self.assertEqual(bj.out_hw(fwd), (4, 4))
        self.assertEqual(bj.conv_flops(dcgan), bj.conv_flops(fwd))
        self.assertEqual(bj.conv_bytes(dcgan, "fp32"), bj.conv_bytes(fwd, "fp32"))
        hifi = dict(n=1, c=512, h=1, w=32, k=256, r=1, s=16, pad_h=0, pad_w=4, stride_h=1, stride_w=8,
                    dil_h=1, dil_w=1, groups=1, transposed=1)
        self.assertEqual(bj.out_hw(hifi), (1, 256))
        self.assertEqual(bj.out_hw(dict(hifi, output_pad_w=3)), (1, 259))

    def test_transposed_suite(self):
        """bench/suites/transposed_decoders.csv: each model's layers chain, ending at its output size."""
        rows = {r["layer"]: r for r in bj.read_shapes(bj.suite_csv("transposed_decoders"))}
        self.assertTrue(all(r["transposed"] == 1 for r in rows.values()))
        out = {name: bj.out_hw(r) for name, r in rows.items()}
        self.assertEqual(out["dcgan.main.12"], (64, 64))
        self.assertEqual([out[f"unet.up{i}"] for i in range(1, 5)], [(56, 56), (104, 104), (200, 200), (392, 392)])
        self.assertEqual(out["fcn8s.upscore8"], (512, 512))
        self.assertEqual(out["hifigan_v1.ups.3"], (1, 8192))  # 32 frames x hop 256
        for a, b in [("dcgan.main.0", "dcgan.main.3"), ("dcgan.main.9", "dcgan.main.12"),
                     ("fcn8s.upscore2", "fcn8s.upscore_pool4"), ("fcn8s.upscore_pool4", "fcn8s.upscore8"),
                     ("hifigan_v1.ups.0", "hifigan_v1.ups.1"), ("hifigan_v1.ups.2", "hifigan_v1.ups.3")]:
            self.assertEqual((rows[a]["k"],) + out[a], (rows[b]["c"], rows[b]["h"], rows[b]["w"]), (a, b))


class Validate(unittest.TestCase):
    def setUp(self):
        self.doc = make_doc("cudnn", [make_row("conv3x3", 10.0),
                                      make_row("dw3x3", 5.0, error="out of memory")])

    def test_good(self):
        bj.validate(self.doc)

    def bad(self, mutate, pattern):
        doc = copy.deepcopy(self.doc)
        mutate(doc)
        with self.assertRaisesRegex(bj.SchemaError, pattern):
            bj.validate(doc)

    def test_doc_example(self):
        """The example in docs/bench-json.md stays valid."""
        text = (HERE.parent / "docs" / "bench-json.md").read_text()
        bj.validate(json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1)))

    def test_bad_documents(self):
        self.bad(lambda d: d.update(schema="vkconv-bench/0"), "schema")
        self.bad(lambda d: d.pop("protocol"), 'missing "protocol"')
        self.bad(lambda d: d.update(created="yesterday"), "created")
        self.bad(lambda d: d["device"].update(subgroup_sizes=[64, 32]), "subgroup_sizes")
        self.bad(lambda d: d["rows"][0].pop("us"), r'rows\[0\].*missing "us"')
        self.bad(lambda d: d["rows"][0].update(us="10"), r"rows\[0\].*\.us: expected num")
        self.bad(lambda d: d["rows"][0].update(dtype="fp64"), "dtype: 'fp64' is not one of")
        self.bad(lambda d: d["rows"][0].update(n=32), r"n \(32\) must equal batch \(1\)")
        self.bad(lambda d: d["rows"][0].update(gflop=d["rows"][0]["gflop"] * 32), "gflop")
        self.bad(lambda d: d["rows"][0].update(tflops=d["rows"][0]["tflops"] * 1000), "tflops")
        self.bad(lambda d: d["rows"][0].update(us_min=20.0), "us_min <= us")
        self.bad(lambda d: d["rows"][1].pop("error"), r"rows\[1\].*must not be null")
        self.bad(lambda d: d["rows"].append(copy.deepcopy(d["rows"][0])), "duplicates rows")
        self.bad(lambda d: d["rows"][0].update(check="ok"), "check")
        self.bad(lambda d: d["rows"][0].update(count=0), r"count: must be >= 1")
        self.bad(lambda d: d["rows"][0].update(count=2.0), r"count: expected int")
        self.bad(lambda d: d["rows"][0].update({"pass": "bwd"}), r"pass: 'bwd' is not one of")
        self.bad(lambda d: d["rows"][0].update(output_pad_h=1), "not transposed")
        self.bad(lambda d: d["rows"][0].update(transposed="yes"), r"transposed: expected bool")

    def test_passes_and_transposed(self):
        doc = copy.deepcopy(self.doc)
        # One layer's passes are different rows; a row without "pass" is the forward pass.
        doc["rows"] += [make_row("conv3x3", 20.0, pss="bwd-data"), make_row("conv3x3", 30.0, pss="bwd-weight"),
                        make_row("up4x4", 8.0), make_row("up4x4", 9.0, pss="bwd-weight")]
        bj.validate(doc)
        self.assertEqual(len({bj.row_key(r) for r in doc["rows"]}), len(doc["rows"]))
        doc["rows"].append(make_row("conv3x3", 11.0, pss="fwd"))
        with self.assertRaisesRegex(bj.SchemaError, "duplicates rows"):
            bj.validate(doc)
        up = make_row("up4x4", 8.0)
        self.assertEqual(up["gflop"], 2 * 512 * 256 * 16 * 16 / 1e9)
        for pad, ok in [(1, True), (2, False)]:  # below the stride (2) or the dilation (1)
            d = make_doc("cudnn", [dict(up, output_pad_h=pad)])
            d["rows"][0]["gflop"] = bj.conv_flops(d["rows"][0]) / 1e9
            if ok:
                bj.validate(d)
            else:
                with self.assertRaisesRegex(bj.SchemaError, "output_pad_h"):
                    bj.validate(d)


class Report(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        t = Path(cls.tmp.name)
        cudnn = make_doc("cudnn", [
            make_row("conv3x3", 10.0), make_row("conv1x1", 20.0), make_row("dw3x3", 40.0),
            make_row("conv3x3", 100.0, dtype="fp32", layout="nchw"),
            make_row("conv1x1", 50.0, dtype="fp32", layout="nchw", error="out of memory"),
        ])
        vk = make_doc("vkconv", [
            make_row("conv3x3", 20.0, algo="implicit_gemm", config="128x64"),
            make_row("conv1x1", 5.0, algo="implicit_gemm", config="64x64"),
            # dw3x3 missing in fp16; fp32 has two algorithms for conv3x3: the faster counts.
            make_row("conv3x3", 300.0, dtype="fp32", layout="nchw", algo="direct"),
            make_row("conv3x3", 150.0, dtype="fp32", layout="nchw", algo="implicit_gemm"),
            make_row("conv1x1", 60.0, dtype="fp32", layout="nchw", algo="direct"),
        ], tool="vkconv-bench", peaks={"fp32_fma_tflops": 65.6, "fp16_fma_tflops": 66.5,
                                       "coopmat_tflops": {"16x16x16 f16*f16+f32->f32": 647.0},
                                       "bandwidth_gbs": 4074.0, "call_floor_us": 4.1})
        cudnn["peaks"] = {"call_floor_us": 2.2}
        vk["rows"][-1].update(check="fail", max_rel_err=0.5, checked_outputs=1000)
        cls.a, cls.b = t / "cudnn_h200.json", t / "vk_h200.json"
        cls.a.write_text(json.dumps(cudnn))
        cls.b.write_text(json.dumps(vk))
        cls.cudnn, cls.vk = cudnn, vk

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_report(self, *extra, out="out"):
        out = Path(self.tmp.name) / out
        p = subprocess.run([sys.executable, str(HERE / "report.py"), *map(str, extra), "--out", str(out)],
                           capture_output=True, text=True)
        return p, out

    def test_ratios_and_totals(self):
        p, out = self.run_report(self.b, self.a, "--baseline", "cudnn", "--no-plots")
        self.assertEqual(p.returncode, 0, p.stderr)
        md = (out / "report.md").read_text()
        base, vk = "cudnn@H200", "vkconv@H200"

        g = table_rows(md, "toy · fp16 nhwc · batch 1")
        self.assertEqual(g["layer"][3:6], [f"{base} µs", f"{vk} µs", f"{vk} / {base}"])  # baseline first
        self.assertEqual(g["conv3x3"][3:6], ["10.00", "20.00", "2.00"])
        self.assertEqual(g["conv1x1"][3:6], ["20.00", "5.00", "0.25"])
        self.assertEqual(g["dw3x3"][3:6], ["40.00", "—", "—"])
        self.assertEqual(g["conv3x3"][6], "implicit_gemm 128x64")
        self.assertEqual(g["**total**"][3:6], ["70.00", "25.00", "0.83"])  # 25 / (10 + 20)

        rows = {k: make_row(k, 1.0) for k in ("conv3x3", "conv1x1", "dw3x3")}
        base_tflops = sum(r["gflop"] for r in rows.values()) * 1e3 / 70.0
        vk_tflops = (rows["conv3x3"]["gflop"] + rows["conv1x1"]["gflop"]) * 1e3 / 25.0
        totals = md.split("## toy · fp16 nhwc · batch 1\n", 1)[1].split("Totals: ", 1)[1].splitlines()[0]
        self.assertIn(f"**{base}** 70.00 µs, {tb.fmt_num(base_tflops)} TFLOP/s (3/3 layers)", totals)
        self.assertIn(f"**{vk}** 25.00 µs, {tb.fmt_num(vk_tflops)} TFLOP/s (2/3 layers), "
                      f"sum ratio 0.83, geomean {math.sqrt(2 * 0.25):.2f} over 2 common layers", totals)

        g = table_rows(md, "toy · fp32 nchw · batch 1")
        self.assertEqual(g["conv3x3"][3:6], ["100.0", "150.0", "1.50"])  # fastest of two algos
        self.assertEqual(g["conv1x1"][3:6], ["OOM", "60.00 ✗", "—"])  # ✗: failed its check
        self.assertEqual(g["**total**"][3:6], ["100.0", "210.0", "1.50"])

        s = table_rows(md, "Summary")
        fp16 = next(r for r in s.values() if r[1:5] == ["fp16", "nhwc", "1", "fwd"])
        self.assertEqual(fp16[5:], ["3", "70.00", tb.fmt_num(base_tflops), "25.00 (2/3)",
                                    tb.fmt_num(vk_tflops), "0.83", "0.71"])
        overall = (2.0 * 0.25 * 1.5) ** (1 / 3)  # every layer that both inputs have
        self.assertIn(f"Overall geomean ratio vkconv@H200 / cudnn@H200: **{overall:.2f}** over 3 layers", md)
        self.assertIn("- cudnn@H200: toy/conv1x1 b1 fp32 nchw: out of memory", md)
        self.assertIn("the rows' protocol): cudnn@H200 2.20 µs, vkconv@H200 4.10 µs.", md)
        self.assertIn("- vkconv@H200: toy/conv1x1 b1 fp32 nchw: check failed (max_rel_err 5.00e-01)", md)

    def test_labels_and_baseline_selection(self):
        p, out = self.run_report(self.a, self.b, "--label", f"{self.b.name}=mine", "--baseline", "mine",
                                 "--no-plots", out="labels")
        self.assertEqual(p.returncode, 0, p.stderr)
        g = table_rows((out / "report.md").read_text(), "toy · fp16 nhwc · batch 1")
        self.assertEqual(g["conv1x1"][3:6], ["5.00", "20.00", "4.00"])
        p, _ = self.run_report(self.a, self.b, "--baseline", "nothing", "--no-plots", out="x")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("matches no input", p.stderr)

    def test_rejects_malformed_input(self):
        bad = copy.deepcopy(self.vk)
        bad["rows"][1]["dtype"] = "half"
        path = Path(self.tmp.name) / "bad.json"
        path.write_text(json.dumps(bad))
        p, _ = self.run_report(self.a, path, "--no-plots", out="bad")
        self.assertNotEqual(p.returncode, 0)
        self.assertRegex(p.stderr, r"bad\.json: rows\[1\] \(toy/conv1x1\)\.dtype: 'half' is not one of")

    def test_plots(self):
        if importlib.util.find_spec("matplotlib") is None:
            self.skipTest("matplotlib not installed")
        p, out = self.run_report(self.a, self.b, out="plots")
        self.assertEqual(p.returncode, 0, p.stderr)
        pngs = sorted(f.name for f in (out / "plots").glob("*.png"))
        self.assertEqual(pngs, ["roofline_toy_fp16_nhwc_b1.png", "roofline_toy_fp32_nchw_b1.png",
                                "tflops_toy_fp16_nhwc_b1.png", "tflops_toy_fp32_nchw_b1.png"])
        self.assertIn("](plots/roofline_toy_fp16_nhwc_b1.png)", (out / "report.md").read_text())


class Passes(unittest.TestCase):
    """report.py pairs rows by (layer, pass): a backward row is never compared with a forward one."""

    def test_pairs_by_pass(self):
        cudnn = make_doc("cudnn", [
            make_row("conv3x3", 10.0), make_row("conv3x3", 30.0, pss="bwd-data"),
            make_row("conv1x1", 20.0, pss="bwd-weight"), make_row("up4x4", 4.0),
        ])
        vk = make_doc("vkconv", [
            make_row("conv3x3", 60.0, pss="bwd-data", algo="dgrad_direct"),  # no forward row
            make_row("conv1x1", 10.0, pss="bwd-weight", algo="wgrad_direct"),
            make_row("conv1x1", 1.0, algo="implicit_gemm"),  # no forward baseline
            make_row("up4x4", 8.0, algo="dgrad_direct", pss="fwd"),
        ], tool="vkconv-bench")
        with tempfile.TemporaryDirectory() as d:
            a, b = Path(d) / "cudnn.json", Path(d) / "vk.json"
            a.write_text(json.dumps(cudnn))
            b.write_text(json.dumps(vk))
            p = subprocess.run([sys.executable, str(HERE / "report.py"), str(a), str(b), "--no-plots", "--out",
                                str(Path(d) / "out")], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            md = (Path(d) / "out" / "report.md").read_text()
        fwd = table_rows(md, "toy · fp16 nhwc · batch 1")
        self.assertEqual(fwd["conv3x3"][3:6], ["10.00", "—", "—"])
        self.assertEqual(fwd["conv1x1"][3:6], ["—", "1.00", "—"])
        self.assertEqual(fwd["up4x4"][1], "512→256 4×4 4×4 T s2 p1")
        self.assertEqual(fwd["up4x4"][3:6], ["4.00", "8.00", "2.00"])
        dgrad = table_rows(md, "toy · fp16 nhwc · batch 1 · bwd-data")
        self.assertEqual(dgrad["conv3x3"][3:6], ["30.00", "60.00", "2.00"])
        self.assertNotIn("conv1x1", dgrad)
        wgrad = table_rows(md, "toy · fp16 nhwc · batch 1 · bwd-weight")
        self.assertEqual(wgrad["conv1x1"][3:6], ["20.00", "10.00", "0.50"])
        summary = [line.split(" | ") for line in md.split("## Summary\n", 1)[1].split("\n\n")[0].strip().splitlines()]
        self.assertEqual([r[4] for r in summary[2:]], ["fwd", "bwd-data", "bwd-weight"])
        # Over every layer both inputs have, each with its own pass: 2.0 (dgrad), 0.5 (wgrad), 2.0 (transposed).
        self.assertIn(f"over 3 layers", md)
        self.assertIn(f"**{(2.0 * 0.5 * 2.0) ** (1 / 3):.2f}**", md)


class Floors(unittest.TestCase):
    """floors.py --measured: each row against its own floors, largest excess first, and the sums."""

    def test_per_layer(self):
        rows = [make_row("conv3x3", 40.0, batch=32, algo="halo_coopmat"), make_row("dw3x3", 30.0, batch=32, algo="depthwise"),
                make_row("conv1x1", 5.0, error="declined")]
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "run.json"
            path.write_text(json.dumps(make_doc("vkconv", rows, tool="vkconv-bench")))
            p = subprocess.run([sys.executable, str(HERE / "floors.py"), "--measured", str(path), "--peak-tflops", "500",
                                "--bandwidth-gbs", "4000"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = [l.split() for l in p.stdout.splitlines() if l.startswith("toy ")]
        # conv3x3 b32: 7.4 GFLOP -> 14.8 us at 500 TFLOP/s; 2 * 32*64*56*56 + 36864 values, fp16 -> 6.4 MB, 1.6 us.
        conv = rows[0]
        tf, tb = bj.conv_flops(conv) / 500e12 * 1e6, bj.conv_bytes(conv, "fp16") / 4000e9 * 1e6
        dw = rows[1]
        dtf, dtb = bj.conv_flops(dw) / 500e12 * 1e6, bj.conv_bytes(dw, "fp16") / 4000e9 * 1e6
        order = [l[1] for l in lines[:2]]
        expect = ["conv3x3", "dw3x3"] if 40.0 - max(tf, tb) > 30.0 - max(dtf, dtb) else ["dw3x3", "conv3x3"]
        self.assertEqual(order, expect)  # the declined row (no time) is left out
        by = {l[1]: l for l in lines[:2]}
        self.assertEqual(by["conv3x3"][5], "flops")
        self.assertAlmostEqual(float(by["conv3x3"][3]), tf, places=1)
        self.assertAlmostEqual(float(by["conv3x3"][7]), 40.0 / max(tf, tb), places=1)
        self.assertEqual(by["dw3x3"][5], "bytes")
        self.assertAlmostEqual(float(by["dw3x3"][7]), 30.0 / max(dtf, dtb), places=1)
        sums = lines[2]  # suite, n, dtype, layout, layers, flop floor, byte floor, us
        self.assertEqual(sums[4], "2")
        self.assertAlmostEqual(float(sums[7]), 70.0, places=1)


class CoopmatTrace(unittest.TestCase):
    """coopmat_trace.py on a synthetic trace of known phases (two workgroups of two subgroups)."""

    def trace(self, dev_off=0, sg_off=0):
        """The analysis of the synthetic trace, its clocks shifted by dev_off / sg_off ticks and,
        when shifted, kept to 32 bits (lavapipe's clocks) so they wrap inside the trace."""
        import struct
        S, T, E, nsl, rounds = 2, 64, 16, 3, 2
        W = 8 + 3 * T + 3 * E
        head = [0x52544B56 | (1 << 32), 2 | (1 << 32), S | (W << 32), T | (64 << 32), 64 | (32 << 32), nsl | (E << 32), 0, 0]
        recs = []
        for wg in range(2):
            for sg in range(S):
                r = [0] * W
                base = 1000 * wg
                r[0], r[1] = 10_000 * wg, base              # device clock ns, subgroup clock
                r[2] = base + 100                            # prologue 100
                t = r[2]
                for sl in range(nsl):                        # products 50, staging 10, barrier 5 + sg
                    r[8 + 3 * sl] = t + 50
                    r[9 + 3 * sl] = t + 60
                    r[10 + 3 * sl] = t + 65 + sg
                    t = r[10 + 3 * sl]
                r[3] = t                                     # epilogue 40: two rounds of 7 + 10 + 3
                for e in range(rounds):
                    b0 = 8 + 3 * T + 3 * e
                    r[b0], r[b0 + 1], r[b0 + 2] = t + 7, t + 17, t + 20
                    t += 20
                r[4] = t
                r[7] = rounds
                r[5] = r[0] + (r[4] - r[1])                  # 1 ns per cycle
                r[6] = nsl | (sg << 32)
                if dev_off or sg_off:
                    r = [v if i in (6, 7) else (v + (dev_off if i in (0, 5) else sg_off)) & 0xFFFFFFFF
                         for i, v in enumerate(r)]
                recs += r
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "t.vktrace"
            path.write_bytes(struct.pack("<%dQ" % (len(head) + len(recs)), *(head + recs)))
            out = Path(d) / "t.json"
            p = subprocess.run([sys.executable, str(HERE / "coopmat_trace.py"), str(path), "--json", str(out)],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            return json.loads(out.read_text())[0]

    def test_phases(self):
        self.check(self.trace())

    def test_phases_32bit_clocks_wrapping(self):
        # The device clock wraps between the workgroups, the subgroup clock inside the second's slices.
        self.check(self.trace(dev_off=(1 << 32) - 5000, sg_off=(1 << 32) - 1200))

    def check(self, r):
        c = r["phase_cycles_per_workgroup"]
        self.assertEqual(c["prologue"], 100)
        self.assertEqual(c["products"], 150)
        self.assertEqual(c["staging"], 30)
        self.assertEqual(c["barrier"], 3 * 5.5)
        self.assertEqual(c["epilogue"], 40)
        self.assertAlmostEqual(r["share"]["untraced_slices"], 0.0)
        self.assertEqual(r["barrier_arrival_spread_cycles"], 1.0)  # subgroup 1 falls 1 cycle further behind per slice: 0, 1, 2
        self.assertEqual(r["workgroups_alive_max"], 1)           # the second starts after the first ends
        self.assertEqual(r["ns_per_cycle"], 1.0)
        self.assertEqual(r["epilogue_rounds"], 2)
        self.assertEqual(r["epilogue_cycles_per_round"], {"epi_scratch": 7, "epi_stores": 10, "epi_barrier": 3})


class NvSass(unittest.TestCase):
    """nv_sass.py on a synthetic pipeline-cache blob: a zstd frame holding an "NVuc" object, and a
    stand-in nvdisasm that accepts only that object (so the search and decompression are what
    the test checks), then the instruction mix of its text."""

    def test_blob_to_mix(self):
        import ctypes
        spec = importlib.util.spec_from_file_location("nv_sass", HERE / "nv_sass.py")
        nv = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(nv)
        lib = nv.zstd_lib()
        if lib is None:
            self.skipTest("libzstd not found")
        lib.ZSTD_compress.restype = ctypes.c_size_t
        lib.ZSTD_compress.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        obj = b"\x01\x02NVuc" + bytes(range(200))
        dst = ctypes.create_string_buffer(1024)
        n = lib.ZSTD_compress(dst, 1024, obj, len(obj), 3)
        blob = b"H" * 32 + b"\0" * 36 + dst.raw[:n] + b"tail"
        sass = "\n".join([
            "\tRegister count=125",
            "        /*0000*/                   LDSM.16.M88.4 R52, [R0] ;",
            "        /*0010*/                   HMMA.16816.F32 R4, R52.reuse, R68, R4 ;",
            "        /*0020*/                   HMMA.16816.F32 R8, R52, R70, R8 ;",
            "        /*0030*/               @P0 LDG.E.128.CONSTANT R80, [R4.U32+UR4], !P6 ;",
            "        /*0040*/              @!P1 STS.128 [R104], R80 ;",
            "        /*0050*/                   BAR.SYNC 0x0 ;",
            "        /*0060*/                   IADD3 R1, R1, 0x1, RZ ;",
            "        /*0070*/              @P2 BRA 0x10 ;",
            "        /*0080*/                   EXIT ;",
        ])
        with tempfile.TemporaryDirectory() as d:
            d = Path(d)
            (d / "1_x_y_pipeline_cache.bin").write_bytes(blob)
            (d / "1_x_y_variant.txt").write_text("tile 1x1\n")
            fake = d / "nvdisasm"
            fake.write_text("#!/bin/sh\nhead -c 4 \"$1\" | grep -q NVuc || exit 3\ncat %s\n" % (d / "text.sass"))
            (d / "text.sass").write_text(sass)
            fake.chmod(0o755)
            p = subprocess.run([sys.executable, str(HERE / "nv_sass.py"), str(d), "--nvdisasm", str(fake), "--out", str(d / "o"),
                                "--json", str(d / "mix.json")], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            r = json.loads((d / "mix.json").read_text())["pipelines"][0]
            self.assertTrue((d / "o" / "1_x_y.sass").exists())
        self.assertEqual(r["variant"], "tile 1x1")
        self.assertRegex(r["object"], r"^zstd@36\+2\.nvuc$")  # the frame 36 bytes past the 32-byte header
        self.assertEqual(r["registers"], 125)
        self.assertEqual(r["instructions"], 9)
        self.assertEqual(r["groups"], {"smem_matrix": 1, "tensor": 2, "global": 1, "smem": 1, "barrier": 1, "integer": 1, "control": 2})
        self.assertEqual(r["hot_loop"], {"from": "0x10", "to": "0x70", "instructions": 7,
                                          "groups": {"tensor": 2, "global": 1, "smem": 1, "barrier": 1, "integer": 1, "control": 1}})
        self.assertEqual(r["opcodes"]["HMMA.16816.F32"], 2)


ZOO_HEADER = "suite,layer,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups,count\n"


def zoo_row(model, layer, shape, us, count=1, **kw):
    row = make_row(shape, us, suite=model, **kw)
    row.update(layer=layer, count=count)
    return row


class Zoo(unittest.TestCase):
    """The model zoo: CSVs with a count, deterministic parts, per-model report maths."""

    def test_read_and_parts(self):
        with tempfile.TemporaryDirectory() as d:
            csv = Path(d) / "m.csv"
            csv.write_text(ZOO_HEADER + "# skipped head.conv: padding='same' with an even kernel, 4x4\n"
                           "m,a,1,3,32,32,8,3,3,1,1,1,1,1,1,1,1\nm,b,1,8,32,32,8,1,1,0,0,1,1,1,1,1,5\n")
            rows = bj.read_shapes(csv)
            self.assertEqual([(r["layer"], r["count"]) for r in rows], [("a", 1), ("b", 5)])
            csv.write_text(ZOO_HEADER + "m,a,1,3,32,32,8,3,3,1,1,1,1,1,1,1,0\n")
            with self.assertRaisesRegex(ValueError, r"m\.csv:2: bad row"):
                bj.read_shapes(csv)
        # Parts: every shape in exactly one part with all its rows, whatever the rows' order.
        base = dict(n=1, r=3, s=3, pad_h=1, pad_w=1, stride_h=1, stride_w=1, dil_h=1, dil_w=1, groups=1)
        rows = [dict(base, suite=f"m{i % 3}", layer=f"l{i}", c=8 * (1 + i % 5), h=14, w=14, k=16)
                for i in range(20)]
        parts = [bj.zoo_part(rows, i, 3) for i in (1, 2, 3)]
        self.assertEqual(sorted(r["layer"] for p in parts for r in p), sorted(r["layer"] for r in rows))
        keys = [{bj.shape_key(r) for r in p} for p in parts]
        self.assertEqual(sum(map(len, keys)), 5)
        self.assertFalse(keys[0] & keys[1] or keys[1] & keys[2] or keys[0] & keys[2])
        self.assertEqual(bj.zoo_part(list(reversed(rows)), 2, 3), list(reversed(parts[1])))
        # Sorted distinct shapes, every N-th: c = 8, 24, 40 in part 1 of 2; 16, 32 in part 2.
        self.assertEqual(sorted({r["c"] for r in bj.zoo_part(rows, 1, 2)}), [8, 24, 40])
        self.assertEqual(bj.zoo_part(rows, 1, 1), rows)
        self.assertEqual(bj.parse_zoo_part("2/4"), (2, 4))
        for bad in ("0/4", "5/4", "4", "a/b", "1/0", "-1/2"):
            with self.assertRaises(ValueError):
                bj.parse_zoo_part(bad)

    def test_baseline_plan(self):
        with tempfile.TemporaryDirectory() as d:
            (Path(d) / "ma.csv").write_text(ZOO_HEADER + "ma,a,1,3,32,32,8,3,3,1,1,1,1,1,1,1,1\n"
                                            "ma,b,1,8,32,32,8,1,1,0,0,1,1,1,1,1,3\n")
            (Path(d) / "mb.csv").write_text(ZOO_HEADER + "mb,x,1,8,32,32,8,1,1,0,0,1,1,1,1,1,2\n")
            args = lambda **kw: type("A", (), dict(dict(shapes=[], suite=[], suites_dir=d, limit=0, batch=None,
                                                        zoo=[""], zoo_dir=d, zoo_part_n=(1, 1)), **kw))
            plan = tb.build_plan(args())
            self.assertEqual([(m, [(r["layer"], r["count"]) for r in rows]) for m, rows in plan],
                             [("ma", [("a", 1), ("b", 3)]), ("mb", [("x", 2)])])
            self.assertEqual([m for m, _ in tb.build_plan(args(zoo=["mb"]))], ["mb"])
            # Part 2 of 2 holds the 8-channel 1x1 shape: ma/b and mb/x, nothing of ma/a.
            plan = tb.build_plan(args(zoo_part_n=(2, 2)))
            self.assertEqual([(m, [r["layer"] for r in rows]) for m, rows in plan], [("ma", ["b"]), ("mb", ["x"])])
            with self.assertRaises(SystemExit):
                tb.build_plan(args(zoo=["nosuch"]))

    def test_report(self):
        # Two models share conv1x1 (timed once, one row each); ma has conv3x3 three times.
        # base: ma = 3*10 + 1*20 = 50, mb = 2*20 + 1*40 = 80; vk: ma = 3*20 + 1*5 = 65, mb = 2*5 + 1*80 = 90.
        cudnn = make_doc("cudnn", [zoo_row("ma", "c3", "conv3x3", 10.0, 3), zoo_row("ma", "c1", "conv1x1", 20.0),
                                   zoo_row("mb", "p", "conv1x1", 20.0, 2), zoo_row("mb", "dw", "dw3x3", 40.0),
                                   zoo_row("mc", "q", "conv3x3", 10.0)])  # mc: no vkconv row
        part1 = make_doc("vkconv", [zoo_row("ma", "c3", "conv3x3", 20.0, 3, algo="implicit_gemm"),
                                    zoo_row("mb", "dw", "dw3x3", 80.0, algo="depthwise")], tool="vkconv-bench")
        part2 = make_doc("vkconv", [zoo_row("ma", "c1", "conv1x1", 5.0, algo="implicit_gemm"),
                                    zoo_row("mb", "p", "conv1x1", 5.0, 2, algo="implicit_gemm")], tool="vkconv-bench")
        suite = make_doc("vkconv", [make_row("conv3x3", 12.0, algo="direct")], tool="vkconv-bench")
        with tempfile.TemporaryDirectory() as d:
            files = []
            for name, doc in (("cudnn", cudnn), ("p1", part1), ("p2", part2), ("suite", suite)):
                files.append(Path(d) / f"{name}.json")
                files[-1].write_text(json.dumps(doc))
            p = subprocess.run([sys.executable, str(HERE / "report.py"), *map(str, files), "--baseline", "cudnn",
                                "--no-plots", "--out", str(Path(d) / "out")], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            md = (Path(d) / "out" / "report.md").read_text()
            layers = (Path(d) / "out" / "zoo_layers.md").read_text()
        base, vk = "cudnn@H200", "vkconv@H200"
        z = table_rows(md, "Model zoo")
        self.assertEqual(z["model"], ["model", "layers", "convs", "GFLOP", f"{base} ms", f"{vk} ms", f"{vk} / {base}"])
        self.assertEqual(z["ma"][1:3] + z["ma"][4:], ["2", "4", "0.050", "0.065", "1.30"])
        self.assertEqual(z["mb"][1:3] + z["mb"][4:], ["2", "3", "0.080", "0.090", "1.12"])
        gflop = 3 * make_row("conv3x3", 1)["gflop"] + make_row("conv1x1", 1)["gflop"]
        self.assertEqual(z["ma"][3], report_fmt(gflop))
        self.assertIn(f"{vk} / {base}: geometric mean of the per-model ratios **{math.sqrt(1.3 * 1.125):.2f}** "
                      "over 2 models; worst model **ma** (1.30), best mb (1.12); 1 model left out, "
                      "a layer missing in one input.", md)
        self.assertEqual(z["mc"][5:], ["—", "—"])
        # Worst layers: distinct shapes (conv1x1 once, with both models and 3 convolutions).
        worst = md.split("Worst 3 layers of", 1)[1].split("\n\n", 2)[1].splitlines()[2:]
        self.assertEqual([w.split(" | ")[-3] for w in worst], ["2.00", "2.00", "0.25"])
        self.assertIn("| ma, mb ×2 (3) |", worst[2].replace("mb ×2, ma", "ma, mb ×2"))
        # The ordinary suite keeps its own table; the zoo's layers go to zoo_layers.md with counts.
        self.assertIn("## toy · fp16 nhwc · batch 1", md)
        self.assertNotIn("## ma · fp16", md)
        t = table_rows(layers, "ma · fp16 nhwc · batch 1")
        self.assertEqual(t["c3"][3:7], ["3", "10.00", "20.00", "2.00"])
        self.assertEqual(t["**total**"][3:7], ["4", "50.00", "65.00", "1.30"])


def report_fmt(v):
    import report
    return report.fmt(v)



class BaselineHelpers(unittest.TestCase):
    def test_versions_and_arch(self):
        self.assertEqual(tb.decode_cudnn_version(91900), "9.19.0")
        self.assertEqual(tb.decode_cudnn_version(8907), "8.9.7")
        self.assertEqual([tb.amd_arch(a) for a in ("gfx1010:xnack-", "gfx1030", "gfx1100", "gfx1201",
                                                   "gfx90a", "gfx906", None)],
                         ["RDNA1", "RDNA2", "RDNA3", "RDNA4", "CDNA2", "GCN", None])

    def test_check_indices(self):
        self.assertEqual(tb.check_indices(10, 3), {0, 4, 9})
        self.assertEqual(tb.check_indices(2, 3), {0, 1})
        self.assertEqual(tb.check_indices(5, 0), set(range(5)))

    def test_plan(self):
        with tempfile.TemporaryDirectory() as d:
            csv = Path(d) / "toy.csv"
            csv.write_text("suite,layer,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups\n"
                           "toy,a,1,3,32,32,8,3,3,1,1,1,1,1,1,1\ntoy,b,1,8,32,32,8,1,1,0,0,1,1,1,1,1\n")
            args = type("A", (), dict(shapes=[str(csv)], suite=["toy"], suites_dir=d, limit=0))
            (suite, layers), = tb.build_plan(args)  # the same file twice: layers once
            self.assertEqual((suite, [l["layer"] for l in layers]), ("toy", ["a", "b"]))
            self.assertEqual(layers[0]["c"], 3)
            # A layer listed at two n: both rows without --batch, one with it.
            two = Path(d) / "two.csv"
            two.write_text("suite,layer,n,c,h,w,k,r,s,pad_h,pad_w,stride_h,stride_w,dil_h,dil_w,groups\n"
                           "cases,a,1,8,8,8,8,1,1,0,0,1,1,1,1,1\ncases,a,32,8,8,8,8,1,1,0,0,1,1,1,1,1\n")
            own = type("A", (), dict(shapes=[str(two)], suite=None, suites_dir=d, limit=0, batch=None))
            (_, rows), = tb.build_plan(own)
            self.assertEqual([int(r["n"]) for r in rows], [1, 32])
            fixed = type("A", (), dict(shapes=[str(two)], suite=None, suites_dir=d, limit=0, batch=[4]))
            (_, rows), = tb.build_plan(fixed)
            self.assertEqual(len(rows), 1)

    def test_jobs_batch(self):
        shape = lambda name, n: {"layer": name, "n": n}
        plan = [("cases", [shape("a", 16), shape("b", 1)]), ("sd", [shape("l1", 1)])]
        cfg = [("fp16", "nhwc")]
        # No --batch: each shape's own n (bench/cases/ rows carry theirs).
        own = tb.make_jobs(plan, [None], cfg, {"sd"}, None)
        self.assertEqual([(j[0], j[2]["layer"], j[3]) for j in own], [("cases", "a", 16), ("cases", "b", 1), ("sd", "l1", 1)])
        # --batch overrides n; batch-1-only suites are skipped above 1; verify picks layers.
        b32 = tb.make_jobs(plan, [32], cfg, {"sd"}, 1)
        self.assertEqual([(j[2]["layer"], j[3], j[6]) for j in b32], [("a", 32, True), ("b", 32, False)])

    def test_pass_calls(self):
        """Which torch call each pass makes, and with what, recorded by stand-ins for torch."""
        calls = []

        class Fake:
            def __getattr__(self, name):
                return lambda *a, **kw: calls.append((name, a, kw)) or ("dx", "dw", "db")

        fake = Fake()
        old = tb.F, tb.torch
        tb.F, tb.torch = fake, type("T", (), {"ops": type("O", (), {"aten": fake})})
        try:
            conv = dict(c=8, h=10, w=10, k=16, r=3, s=3, pad_h=1, pad_w=1, stride_h=2, stride_w=2, dil_h=1,
                        dil_w=1, groups=2)
            up = dict(conv, c=16, k=8, r=4, s=4, transposed=1, output_pad_h=1, output_pad_w=0)
            self.assertEqual(tb.operand_shapes(conv, 4), {"x": (4, 8, 10, 10), "w": (16, 4, 3, 3),
                                                          "y": (4, 16, 5, 5)})
            self.assertEqual(tb.operand_shapes(up, 4), {"x": (4, 16, 10, 10), "w": (16, 4, 4, 4),
                                                        "y": (4, 8, 21, 20)})
            for shape, pss, want in [(conv, "fwd", "conv2d"), (up, "fwd", "conv_transpose2d"),
                                     (conv, "bwd-data", "dx"), (up, "bwd-weight", "dw")]:
                calls.clear()
                got = tb.pass_call(shape, pss)("X", "W", "DY")
                name, a, kw = calls[0]
                if pss == "fwd":
                    self.assertEqual((name, a[:2]), (want, ("X", "W")))
                    self.assertEqual(kw["stride"], (2, 2))
                    if bj.is_transposed(shape):
                        self.assertEqual(kw["output_padding"], (1, 0))
                    continue
                self.assertEqual((name, got), ("convolution_backward", want))
                self.assertEqual(a[:3], ("DY", "X", "W"))
                self.assertEqual(list(a[3:]), list(tb.backward_args(shape, pss)))
            self.assertEqual(tb.backward_args(up, "bwd-weight"),
                             (None, [2, 2], [1, 1], [1, 1], True, [1, 0], 2, [False, True, False]))
            self.assertEqual(tb.backward_args(conv, "bwd-data")[4:], (False, [0, 0], 2, [True, False, False]))
        finally:
            tb.F, tb.torch = old

    def test_short_device(self):
        import report
        self.assertEqual(report.short_device("NVIDIA H100 80GB HBM3"), "H100")
        self.assertEqual(report.short_device("NVIDIA H200"), "H200")
        self.assertEqual(report.short_device("AMD Radeon RX 5700 XT (RADV NAVI10)"), "RX 5700 XT")
        self.assertEqual(report.short_device("NVIDIA GeForce RTX 4090"), "RTX 4090")


if __name__ == "__main__":
    unittest.main(verbosity=2)
