#!/usr/bin/env python3
"""NVIDIA machine code of vkconv's pipelines, from `vkconv-bench shader-stats --isa DIR`.

NVIDIA's Vulkan driver returns statistics but no internal representations, so the compile lab
also writes each pipeline alone in a VkPipelineCache of its own (DIR/*_pipeline_cache.bin).  Past
the 32-byte VkPipelineCacheHeaderVersionOne that blob holds the driver's objects, zstd-compressed
or plain; the decompressed microcode object ("NVuc") is a format `nvdisasm` reads.  This script
finds those objects, disassembles them and counts the instruction mix:

    python3 bench/nv_sass.py DIR [--nvdisasm PATH] [--out OUTDIR] [--json FILE]

For each pipeline it writes OUTDIR/<stem>.sass (nvdisasm's text) and prints the counts that say
what a matrix kernel spends its issue slots on: HMMA (tensor-core products), LDSM / LDS / STS
(shared memory), LDG / STG (global), BAR (barriers), integer and predicate work, and the register
count nvdisasm reports.  Nothing here knows the driver's container layout beyond the two magic
numbers, so an object it cannot disassemble is kept (OUTDIR/<stem>.obj*) for a closer look.

Known limit (driver 580): in one process, from about the 386th pipeline on, the driver's blobs
grow from ~70 KiB to ~2.1 MiB and hold no zstd frame this script finds; run the
compile lab's --isa on subsets (--algo, --tile) of a few dozen pipelines.
"""
import argparse
import collections
import concurrent.futures
import ctypes
import ctypes.util
import json
import os
import re
import shutil
import struct
import subprocess
import sys

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
NVUC_MAGIC = b"NVuc"
ELF_MAGIC = b"\x7fELF"
CACHE_HEADER_BYTES = 32

_zstd = None


def zstd_lib():
    global _zstd
    if _zstd is None:
        name = ctypes.util.find_library("zstd") or "libzstd.so.1"
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            _zstd = False
            return None
        lib.ZSTD_findFrameCompressedSize.restype = ctypes.c_size_t
        lib.ZSTD_findFrameCompressedSize.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        lib.ZSTD_getFrameContentSize.restype = ctypes.c_ulonglong
        lib.ZSTD_getFrameContentSize.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        lib.ZSTD_decompress.restype = ctypes.c_size_t
        lib.ZSTD_decompress.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t]
        lib.ZSTD_isError.restype = ctypes.c_uint
        lib.ZSTD_isError.argtypes = [ctypes.c_size_t]
        _zstd = lib
    return _zstd or None


def zstd_frames(blob):
    """Yields (offset, decompressed bytes) for every zstd frame libzstd accepts in blob."""
    lib = zstd_lib()
    if lib is None:
        return
    pos = blob.find(ZSTD_MAGIC)
    while pos >= 0:
        src = blob[pos:]
        buf = ctypes.create_string_buffer(src, len(src))
        csize = lib.ZSTD_findFrameCompressedSize(buf, len(src))
        usize = lib.ZSTD_getFrameContentSize(buf, len(src))
        ok = not lib.ZSTD_isError(csize) and usize < (1 << 31)
        if ok:
            out = ctypes.create_string_buffer(max(int(usize), 1))
            n = lib.ZSTD_decompress(out, int(usize), buf, csize)
            if not lib.ZSTD_isError(n):
                yield pos, out.raw[:n]
                pos = blob.find(ZSTD_MAGIC, pos + int(csize))
                continue
        pos = blob.find(ZSTD_MAGIC, pos + 1)


def candidates(blob):
    """Objects worth handing to nvdisasm: (label, bytes), best guesses first."""
    body = blob[CACHE_HEADER_BYTES:] if len(blob) > CACHE_HEADER_BYTES else blob
    seen = set()
    # Decompressed frames first: a small object may sit verbatim inside its own frame.
    sources = [("zstd@%d" % off, data) for off, data in zstd_frames(body)] + [("raw", body)]
    for label, data in sources:
        for magic, kind in ((NVUC_MAGIC, "nvuc"), (ELF_MAGIC, "elf")):
            pos = data.find(magic)
            while pos >= 0:
                obj = data[pos:]
                if obj not in seen:
                    seen.add(obj)
                    yield "%s+%d.%s" % (label, pos, kind), obj
                pos = data.find(magic, pos + 1)


# One instruction of nvdisasm's listing: address, optional predicate, opcode, modifiers, operands.
INSTR = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*)((?:\.[A-Z0-9_]+)*)([^;]*);")
GROUPS = (
    ("tensor", ("HMMA", "IMMA", "HGMMA", "BMMA", "DMMA")),
    ("smem_matrix", ("LDSM", "STSM")),
    ("smem", ("LDS", "STS", "ATOMS", "LDGSTS")),
    ("local", ("LDL", "STL")),  # register spills or dynamically indexed arrays: worth a look
    ("global", ("LDG", "STG", "LD", "ST", "RED", "ATOMG", "ATOM")),
    ("barrier", ("BAR", "MEMBAR", "DEPBAR", "WARPSYNC", "BSYNC", "BSSY")),
    ("convert", ("F2F", "F2FP", "I2F", "F2I", "PRMT")),
    ("fp32", ("FADD", "FMUL", "FFMA", "FMNMX", "FSEL", "FSETP", "MUFU", "HADD2", "HMUL2", "HFMA2")),
    ("integer", ("IADD3", "IMAD", "LEA", "LOP3", "SHF", "IABS", "ISETP", "IMNMX", "SEL", "MOV", "IADD", "SGXT",
                 "UIADD3", "UIMAD", "ULEA", "ULOP3", "USHF", "UISETP", "UMOV", "USEL", "S2R", "S2UR", "CS2R", "R2UR",
                 "UPRMT", "UFLO", "FLO", "POPC", "VIADD", "VIMNMX", "P2R", "R2P", "PLOP3", "UPLOP3",
                 "VOTE", "VOTEU", "SHFL", "LEPC")),
    ("control", ("BRA", "EXIT", "NOP", "BPT", "RET", "CALL", "JMP", "YIELD", "BREAK", "NANOSLEEP", "CCTL")),
)


def classify(op):
    for name, ops in GROUPS:
        if op in ops:
            return name
    return "other"



def hot_loop(sass):
    """The hottest loop: of the ranges [target, branch] closed by a backward BRA, the one with the
    most tensor instructions (a matrix kernel's slice loop), else the most multiply-adds (a scalar
    kernel's).  Its extent and opcode groups, or None."""
    lines = [(int(m.group(1), 16), m.group(2), m.group(4)) for m in INSTR.finditer(sass)]
    best = None
    for addr, op, args in lines:
        if op != "BRA":
            continue
        t = re.search(r"0x([0-9a-f]+)", args)
        if not t or int(t.group(1), 16) > addr:
            continue
        lo = int(t.group(1), 16)
        body = [o for a, o, _ in lines if lo <= a <= addr]
        # rank by tensor instructions, then (scalar kernels) by multiply-adds
        score = (sum(classify(o) == "tensor" for o in body), sum(o in ("FFMA", "HFMA2", "FMUL") for o in body))
        if any(score) and (best is None or score > best[0]):
            best = (score, lo, addr, body)
    if best is None:
        return None
    g = collections.Counter(classify(o) for o in best[3])
    return {"from": "0x%x" % best[1], "to": "0x%x" % best[2], "instructions": len(best[3]), "groups": dict(g)}


def mix(sass):
    """Opcode counts of a disassembly (static: each instruction once, loops not unrolled), and
    those of its hottest loop."""
    ops = collections.Counter()
    full = collections.Counter()
    for m in INSTR.finditer(sass):
        ops[m.group(2)] += 1
        full[m.group(2) + m.group(3)] += 1
    groups = collections.Counter()
    for op, n in ops.items():
        groups[classify(op)] += n
    # nvdisasm 12's NVuc listing states the count; 13's does not: then the highest register
    # named, plus one (a lower bound of what the driver allocates).
    m = re.search(r"Register count\s*=\s*(\d+)", sass)
    named = [int(r) for r in re.findall(r"\bR(\d+)\b", sass)]
    regs = int(m.group(1)) if m else (max(named) + 1 if named else None)
    return {"instructions": sum(ops.values()), "groups": dict(groups), "opcodes": dict(full.most_common()), "registers": regs,
            "hot_loop": hot_loop(sass)}


def disassemble(nvdisasm, path):
    tries = ([nvdisasm, path], [nvdisasm, "-c", path], [nvdisasm, "--binary", "SM90", path])
    errors = []
    for cmd in tries:
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=120)  # nvdisasm may print raw bytes
        except (OSError, subprocess.TimeoutExpired) as e:
            errors.append("%s: %s" % (" ".join(cmd[1:]), e))
            continue
        if r.returncode == 0 and INSTR.search(r.stdout):
            return r.stdout, " ".join(cmd[1:-1])
        errors.append("%s: rc %d %s" % (" ".join(cmd[1:-1]) or "(plain)", r.returncode, r.stderr.strip()[:200]))
    return None, "; ".join(errors)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+", help="--isa directories or *_pipeline_cache.bin files")
    ap.add_argument("--nvdisasm", default=shutil.which("nvdisasm") or "/usr/local/cuda/bin/nvdisasm")
    ap.add_argument("--out", help="where .sass files go (default: beside each input)")
    ap.add_argument("--json", help="write the instruction mix of every pipeline here")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="nvdisasm processes at once")
    ap.add_argument("--headers", action="store_true",
                    help="only check each blob's VkPipelineCacheHeaderVersionOne (any driver) and print its vendor and device")
    args = ap.parse_args()

    files = []
    for p in args.inputs:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith("_pipeline_cache.bin"))
        else:
            files.append(p)
    if not files:
        sys.exit("nv_sass: no *_pipeline_cache.bin among the inputs")
    if args.headers:
        bad = 0
        for f in files:
            blob = open(f, "rb").read()
            length, version, vendor, device = struct.unpack_from("<4I", blob) if len(blob) >= 16 else (0, 0, 0, 0)
            ok = len(blob) >= CACHE_HEADER_BYTES and length == CACHE_HEADER_BYTES and version == 1
            bad += not ok
            print("%s %s: %d bytes, vendor 0x%04x, device 0x%04x" % ("ok " if ok else "BAD", os.path.basename(f), len(blob), vendor, device))
        return 1 if bad else 0
    if zstd_lib() is None:
        print("nv_sass: libzstd not found: only uncompressed objects can be found", file=sys.stderr)

    def one(f):
        stem = os.path.basename(f)[: -len("_pipeline_cache.bin")] if f.endswith("_pipeline_cache.bin") else os.path.basename(f)
        outdir = args.out or os.path.dirname(f) or "."
        os.makedirs(outdir, exist_ok=True)
        variant_file = f[: -len("_pipeline_cache.bin")] + "_variant.txt"
        variant = open(variant_file).read().strip() if os.path.exists(variant_file) else ""
        blob = open(f, "rb").read()
        entry = {"pipeline": stem, "variant": variant, "cache_bytes": len(blob)}
        why = []
        for i, (label, obj) in enumerate(candidates(blob)):
            path = os.path.join(outdir, "%s.obj%d" % (stem, i))
            with open(path, "wb") as fh:
                fh.write(obj)
            sass, how = disassemble(args.nvdisasm, path)
            if sass is None:
                why.append("%s: %s" % (label, how))
                continue
            with open(os.path.join(outdir, stem + ".sass"), "w") as fh:
                fh.write(sass)
            os.remove(path)
            entry.update({"object": label, "nvdisasm": how or "(plain)"}, **mix(sass))
            return entry
        entry["error"] = "; ".join(why) or "no NVuc/ELF object found (zstd %s)" % ("found" if zstd_lib() else "missing")
        return entry

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        report = list(pool.map(one, files))  # nvdisasm runs in its own process: threads suffice
    failed = 0
    fmt = lambda g: " ".join("%s %d" % kv for kv in sorted(g.items(), key=lambda kv: -kv[1]))
    for entry in report:
        stem = entry["pipeline"]
        if "error" in entry:
            failed += 1
            print("%-60s FAILED %s" % (stem[:60], entry["error"][:300]))
            continue
        print("%-60s regs %s, %d instrs: %s" % (stem[:60], entry["registers"], entry["instructions"], fmt(entry["groups"])))
        if entry["hot_loop"]:
            h = entry["hot_loop"]
            print("%-60s   hot loop %s-%s, %d instrs: %s" % ("", h["from"], h["to"], h["instructions"], fmt(h["groups"])))
    spilled = [e["pipeline"] for e in report if e.get("groups", {}).get("local")]
    if spilled:
        print("local memory (LDL/STL) in %d pipelines: %s" % (len(spilled), " ".join(spilled)))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"schema": "vkconv-nv-sass/1", "pipelines": report}, fh, indent=1)
    return 1 if failed == len(files) else 0


if __name__ == "__main__":
    sys.exit(main())
