#!/usr/bin/env python3
"""Self-test of bench/bounds.py: the bound of hand-counted layers and the targets' readings.

  python3 bench/test_bounds.py        (plain unittest)
"""
import contextlib
import io
import json
import math
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import benchjson as bj  # noqa: E402
import bounds  # noqa: E402
from test_report import make_doc  # noqa: E402

PEAKS = {"call_floor_us": 2.5, "dispatch_us": 0.4, "bandwidth_gbs": 4000.0, "slice_loop_tflops": 400.0,
         "slice_loop_probe": "coopmat f16 from shared memory, test", "fp32_fma_tflops": 64.0, "fp16_fma_tflops": 66.0,
         "coopmat_tflops": {"16x16x16 f16*f16+f32->f32": 640.0}}


def conv(layer, c, h, k, r, *, n=1, stride=1, groups=1, dtype="fp16", us=None, suite="toy", algo="x"):
    pad = r // 2
    row = dict(suite=suite, layer=layer, n=n, c=c, h=h, w=h, k=k, r=r, s=r, pad_h=pad, pad_w=pad, stride_h=stride,
               stride_w=stride, dil_h=1, dil_w=1, groups=groups, batch=n, dtype=dtype, layout="nhwc", algo=algo, config="")
    row["gflop"] = bj.conv_flops(row) / 1e9
    if us is not None:
        row.update(us=us, us_min=us, us_max=us, tflops=row["gflop"] * 1e3 / us, pct_peak=None, check="skipped",
                   max_rel_err=None, checked_outputs=None)
    return row


def device(**over):
    args = dict(call_floor_us=None, bandwidth_gbs=None, gemm16_tflops=None, fma32_tflops=None, fma16_tflops=None)
    args.update(over)
    return bounds.device_from_peaks(PEAKS, type("O", (), args))


class LayerBound(unittest.TestCase):
    def test_direct_counts_flops_bytes_and_floor(self):
        dev = device()
        # A 1x1 layer: FLOPs over 400 TFLOP/s against 2-byte bytes over 4000 GB/s.
        row = conv("pw", 256, 56, 256, 1, n=32)
        flops = 2 * 32 * 56 * 56 * 256 * 256
        nbytes = 2 * (32 * 256 * 56 * 56 * 2 + 256 * 256)
        bound, design, _ = bounds.layer_bound(row, dev)
        self.assertEqual(design, "direct")
        self.assertAlmostEqual(bound, max(flops / 400e6, nbytes / 4000e3))
        # A tiny layer costs the call floor.
        self.assertEqual(bounds.layer_bound(conv("tiny", 8, 4, 8, 1), dev)[0], 2.5)

    def test_winograd_passes_by_hand(self):
        dev = device()
        row = conv("c3", 256, 56, 256, 3, n=32)
        tiles = 32 * 14 * 14
        v = m = tiles * 36 * 256 * 2
        u = 36 * 256 * 256 * 2
        x = y = 32 * 256 * 56 * 56 * 2
        passes, gflops = bounds.winograd_passes(row, 4, dev)
        self.assertEqual(gflops, 2 * tiles * 36 * 256 * 256)
        self.assertAlmostEqual(passes[0], (x + v) / 4000e3)
        self.assertAlmostEqual(passes[1], max((v + u + m) / 4000e3, gflops / 400e6))
        self.assertAlmostEqual(passes[2], (m + y) / 4000e3)
        bound, design, fused = bounds.layer_bound(row, dev)
        direct = bj.conv_flops(row) / 400e6
        self.assertEqual(design, "F(4x4)")  # 3 passes at the bandwidth beat the direct GEMM here
        self.assertAlmostEqual(bound, sum(passes))
        self.assertLess(bound, direct)
        self.assertLessEqual(fused, bound)

    def test_rates_by_type_and_reduction(self):
        dev = device()
        self.assertEqual(dev.rate(conv("a", 64, 8, 64, 3)), 400e6)                     # matrix units: the slice loop
        self.assertEqual(dev.rate(conv("dw", 64, 8, 64, 3, groups=64)), 66e6)         # depthwise: fp16 FMA
        self.assertEqual(dev.rate(conv("f", 64, 8, 64, 3, dtype="fp32")), 64e6)       # fp32: FMA
        # Winograd only where it applies; fp32 V and M are 4 bytes.
        self.assertEqual(bounds.layer_bound(conv("s2", 64, 56, 64, 3, stride=2), dev)[1], "direct")
        p16, _ = bounds.winograd_passes(conv("w", 64, 56, 64, 3, n=8), 2, dev)
        p32, _ = bounds.winograd_passes(conv("w", 64, 56, 64, 3, n=8, dtype="fp32"), 2, dev)
        self.assertAlmostEqual(p32[0], 2 * p16[0])

    def test_peaks_fallbacks(self):
        d = device(gemm16_tflops=300.0)
        self.assertEqual(d.gemm16, 300e6)
        self.assertEqual(d.gemm16_source, "--gemm16-tflops")
        saved = dict(PEAKS)
        try:
            del PEAKS["slice_loop_tflops"]
            self.assertEqual(device().gemm16, 640e6)  # the coopmat peak: a weaker bound, named as such
            self.assertIn("weaker", device().gemm16_source)
            PEAKS["coopmat_tflops"] = {}
            self.assertEqual(device().gemm16, 66e6)  # no matrix units at all: the fp16 FMA peak
            del PEAKS["call_floor_us"]
            with self.assertRaisesRegex(SystemExit, "call_floor_us"):
                device()
        finally:
            PEAKS.clear()
            PEAKS.update(saved)


class Main(unittest.TestCase):
    def run_main(self, rows, base_rows, *args):
        with tempfile.TemporaryDirectory() as t:
            vk, cu = Path(t) / "vk.json", Path(t) / "cu.json"
            vk.write_text(json.dumps(make_doc("vkconv", rows, tool="vkconv-bench", peaks=PEAKS)))
            cu.write_text(json.dumps(make_doc("cudnn", base_rows)))
            bj.validate(json.loads(vk.read_text()))
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(bounds.main([str(vk), "--baseline", str(cu), *args]), 0)
            return out.getvalue()

    def test_targets(self):
        # Ten tiny layers: 25 us of call floors.  Baseline 20 us in all: 0.8x it is under the floors.
        small = [conv(f"t{i}", 8, 4, 8, 1, us=3.0, algo="direct") for i in range(10)]
        out = self.run_main(small, [conv(f"t{i}", 8, 4, 8, 1, us=2.0, algo="cudnn") for i in range(10)], "--target", "1=0.8")
        self.assertIn("OUT OF REACH: 10 dependent calls cost 25.0 us at the call floor alone", out)
        # A big layer with a slow baseline: within the bound, and the shares printed.
        big = conv("big", 256, 56, 256, 3, n=32, us=1000.0)
        bound = bounds.layer_bound(big, device())[0]
        out = self.run_main([big], [conv("big", 256, 56, 256, 3, n=32, us=4 * bound, algo="cudnn")], "--target", "32=1.0")
        self.assertIn("within the bound", out)
        self.assertIn(f"run at {bound / (4 * bound):.0%} of the bound's speed", out)
        # A fast baseline: under the bound, so out of reach and counted.
        out = self.run_main([big], [conv("big", 256, 56, 256, 3, n=32, us=0.5 * bound, algo="cudnn")], "--target", "32=1.0")
        self.assertIn("OUT OF REACH for every design priced", out)
        self.assertIn("1 rows where the baseline ran under the bound", out)

    def test_fastest_row_per_layer(self):
        rows = [conv("a", 256, 56, 256, 1, n=32, us=500.0, algo="slow"), conv("a", 256, 56, 256, 1, n=32, us=100.0, algo="fast")]
        out = self.run_main(rows, [conv("a", 256, 56, 256, 1, n=32, us=200.0, algo="cudnn")])
        line = next(ln for ln in out.splitlines() if ln.startswith("toy") and " 32 fp16" in ln)
        self.assertIn(" 100.0 ", line)
        self.assertNotIn("600.0", line)
        self.assertTrue(math.isfinite(float(line.split()[-1])))

    def test_bad_target(self):
        with self.assertRaisesRegex(SystemExit, "BATCH=RATIO"):
            self.run_main([conv("a", 8, 4, 8, 1, us=3.0)], [], "--target", "b1")


if __name__ == "__main__":
    unittest.main()
