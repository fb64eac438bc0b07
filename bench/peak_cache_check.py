#!/usr/bin/env python3
"""vkconv-bench's peak cache as untrusted input (ctest "bench_peak_cache"): measure the peaks once
into a fresh cache directory, then replace the cache file with malformed versions of it; each run
must report the file, say what is wrong with it, ignore it and finish as if there were none.

    bench/peak_cache_check.py build/bench/vkconv-bench bench/cases/passes_check.csv
"""
import glob
import json
import os
import subprocess
import sys
import tempfile


def main() -> int:
    bench, shapes = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as cache_dir:
        env = dict(os.environ, VKCONV_CACHE_DIR=cache_dir)
        subprocess.run([bench, "--peak"], env=env, check=True, stdout=subprocess.DEVNULL)
        (path,) = glob.glob(os.path.join(cache_dir, "peaks-*.json"))
        with open(path, encoding="utf-8") as f:
            good = f.read()
        doc = json.loads(good)

        def edited(edit) -> str:
            d = json.loads(good)
            edit(d)
            return json.dumps(d)

        def run() -> str:
            r = subprocess.run([bench, "--shapes", shapes, "--algo", "direct", "--calls", "1", "--repeats", "1",
                                "--warmup", "0", "--warmup-ms", "0", "--json", os.path.join(cache_dir, "run.json")],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=300)
            if r.returncode != 0:
                raise SystemExit(f"vkconv-bench exited {r.returncode}:\n{r.stderr}")
            return r.stderr

        def peaks_of_run() -> dict:
            with open(os.path.join(cache_dir, "run.json"), encoding="utf-8") as f:
                return json.load(f)["peaks"]

        err = run()
        if "ignoring" in err or peaks_of_run() != doc["peaks"]:
            raise SystemExit(f"the good cache was not used:\n{err}")

        other = dict(doc["device"], vendor_id=doc["device"]["vendor_id"] + 1)
        cases = [
            ("", "not JSON"),
            ("peaks", "not JSON"),
            (good[: len(good) // 2], "not JSON"),
            ("[" * 30000, "nesting deeper than"),
            ("[1, 2]", "not a JSON object"),
            (good.replace('"dispatch_us":', '"dispatch_us":1e400,"x":', 1), "number overflow"),
            (good.replace('"dispatch_us":', '"dispatch_us":NaN,"x":', 1), "not JSON"),
            (edited(lambda d: d.pop("device")), "field 'device' is missing"),
            (edited(lambda d: d.update(device=other)), "field 'device.vendor_id' names another device"),
            (edited(lambda d: d.update(peaks=[])), "field 'peaks' is missing or not an object"),
            (edited(lambda d: d["peaks"].update(fp32_fma_tflops="fast")), "field 'peaks.fp32_fma_tflops'"),
            (edited(lambda d: d["peaks"].update(bandwidth_gbs=-1)), "field 'peaks.bandwidth_gbs'"),
            (edited(lambda d: d["peaks"].update(coopmat_tflops={"16x16x16": None})), "field 'peaks.coopmat_tflops.16x16x16'"),
            (edited(lambda d: d["peaks"].update(slice_loop_probe=3)), "field 'peaks.slice_loop_probe'"),
        ]
        for text, expect in cases:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            err = run()
            if f"ignoring the peak cache {path}" not in err or expect not in err:
                raise SystemExit(f"a cache of {text[:60]!r}...: expected a report naming {expect!r}, got:\n{err}")
            if peaks_of_run() != {}:
                raise SystemExit(f"a cache of {text[:60]!r}...: its peaks were used")
        # A FIFO or a directory at the path: refused by name, never a read that blocks.
        os.remove(path)
        for kind, make, undo in [("FIFO", os.mkfifo, os.remove), ("directory", os.mkdir, os.rmdir)]:
            make(path)
            try:
                err = run()
            finally:
                undo(path)
            if f"ignoring the peak cache {path}" not in err or kind not in err:
                raise SystemExit(f"a {kind} at the peak cache's path: expected a report naming it, got:\n{err}")
        print(f"{len(cases) + 2} malformed peak caches reported and ignored")
    return 0


if __name__ == "__main__":
    sys.exit(main())
