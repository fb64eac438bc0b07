#!/usr/bin/env python3
"""Where implicit_gemm_coopmat's time goes, from the phase clocks of its trace build.

vkconv-bench --trace DIR writes one .vktrace per layer (the layout is in
shaders/include/coopmat_trace.glsl).  Per subgroup the kernel records its own clock at the
start, after the first slice is staged (the prologue), after each slice's products, before and
after each slice's closing barrier, and at the epilogue's start and end; the device clock at the
start and the end places the workgroups in time.

  python3 bench/coopmat_trace.py DIR/*.vktrace [--json OUT]

Per layer it prints, in subgroup-clock cycles and as shares of a workgroup's lifetime:
  prologue   first loads + staging + the first barrier
  products   from a barrier's exit to the end of the next slice's matrix products (the loads of
             later slices are issued in that stretch too)
  staging    after the products to the barrier: the next slice's shared-memory stores
  barrier    waiting at the closing barrier (the slowest subgroup's arrival decides)
  epilogue   the accumulators through shared memory to the output, split by round into
             epi_scratch (into the scratch and its barrier), epi_stores (reading it back and
             issuing the global stores) and epi_barrier (the round's closing barrier)
and, from the device clock: the kernel's span, how long workgroups lived, and how many ran at
once on average (occupancy in workgroups).  The clock readings are the kernel's own, so they
perturb it a little (compare the traced row's time with an untraced run).
"""
import argparse
import json
import struct
import sys

MAGIC = 0x52544B56


def lo(w):
    return w & 0xFFFFFFFF


def hi(w):
    return w >> 32


def load(path):
    """(header, 64-bit words): each word is a uvec2 (low, high) read as one little-endian u64."""
    data = open(path, "rb").read()
    n = len(data) // 8
    words = struct.unpack("<%dQ" % n, data[: 8 * n])
    if n < 8 or lo(words[0]) != MAGIC:
        raise ValueError("%s: not a vkconv coopmat trace (magic %#x)" % (path, lo(words[0]) if n else 0))
    head = {
        "gx": lo(words[1]), "gy": hi(words[1]), "subgroups": lo(words[2]), "words": hi(words[2]),
        "traced_slices": lo(words[3]), "bm": hi(words[3]), "bn": lo(words[4]), "bk": hi(words[4]),
        "slices": lo(words[5]), "traced_rounds": hi(words[5]),
    }
    need = 8 + head["gx"] * head["gy"] * head["subgroups"] * head["words"]
    if n < need:
        raise ValueError("%s: %d words expected, file holds %d" % (path, need, n))
    return head, unwrap(head, list(words[:need]))


def unwrap(head, words):
    """Lavapipe's clocks are 32 bits wide (every high word 0) and wrap every 2^32 ticks; read each
    reading as the nearest value to a reference that is congruent mod 2^32 (the record's first
    subgroup-clock reading, the first record's device clock), so differences stay right."""
    W, recs = head["words"], head["gx"] * head["gy"] * head["subgroups"]
    clocks = [i for i in range(W) if i not in (6, 7)]
    if any(hi(words[8 + r * W + i]) for r in range(recs) for i in range(6)):  # slots every record writes
        return words  # 64-bit clocks

    def near(v, ref):
        return ref + ((v - ref + (1 << 31)) % (1 << 32)) - (1 << 31)

    dev0 = words[8]
    for r in range(recs):
        b = 8 + r * W
        sg0 = words[b + 1]
        for i in clocks:
            words[b + i] = near(words[b + i], dev0 if i in (0, 5) else sg0)
    return words


def analyse(path):
    head, p = load(path)
    W, S, T, E = head["words"], head["subgroups"], head["traced_slices"], head["traced_rounds"]
    if W != 8 + 3 * T + 3 * E:
        raise ValueError("%s: record of %d words, header says %d slices and %d rounds traced" % (path, W, T, E))
    wgs = head["gx"] * head["gy"]
    phase = {"prologue": 0, "products": 0, "staging": 0, "barrier": 0, "epilogue": 0, "total": 0}
    epi = {"epi_scratch": 0, "epi_stores": 0, "epi_barrier": 0}
    rounds_seen = 0
    skew_sum, skew_n, slice_cycles = 0, 0, []
    starts, ends, ns_per_cycle = [], [], []
    for wg in range(wgs):
        recs = []
        for sg in range(S):
            b = 8 + (wg * S + sg) * W
            r = p[b:b + W]
            recs.append((r, lo(r[6])))
        nsl = recs[0][1]
        traced = min(nsl, T)
        for r, _ in recs:
            t_start, t_pro, t_epi0, t_epi1 = r[1], r[2], r[3], r[4]
            phase["prologue"] += t_pro - t_start
            phase["epilogue"] += t_epi1 - t_epi0
            rounds = min(lo(r[7]), E)
            rounds_seen = max(rounds_seen, lo(r[7]))
            prev_e = t_epi0
            for e in range(rounds):
                b0 = 8 + 3 * T + 3 * e
                epi["epi_scratch"] += r[b0] - prev_e
                epi["epi_stores"] += r[b0 + 1] - r[b0]
                epi["epi_barrier"] += r[b0 + 2] - r[b0 + 1]
                prev_e = r[b0 + 2]
            phase["total"] += t_epi1 - t_start
            prev = t_pro
            for s in range(traced):
                prod, arrive, leave = r[8 + 3 * s], r[9 + 3 * s], r[10 + 3 * s]
                phase["products"] += prod - prev
                phase["staging"] += arrive - prod
                phase["barrier"] += leave - arrive
                slice_cycles.append(leave - prev)
                prev = leave
            if r[5] > r[0] and t_epi1 > t_start:
                ns_per_cycle.append((r[5] - r[0]) / (t_epi1 - t_start))
        starts.append(min(r[0] for r, _ in recs))  # the workgroup's life: its first start to its last end
        ends.append(max(r[5] for r, _ in recs))
        for s in range(traced):  # arrival spread at each closing barrier
            arr = [r[9 + 3 * s] for r, _ in recs]
            skew_sum += max(arr) - min(arr)
            skew_n += 1
    # Slices beyond the traced ones (deep reductions) are in "total" but not in the phases.
    untraced = phase["total"] - sum(phase[k] for k in ("prologue", "products", "staging", "barrier", "epilogue"))
    t0 = min(starts)
    span_ns = max(ends) - t0
    life_ns = sum(e - s for s, e in zip(starts, ends)) / len(starts)
    alive = sum(e - s for s, e in zip(starts, ends)) / max(span_ns, 1)  # workgroups alive on average
    # The most alive at once (the grid's slots), and the time per workgroup those slots spent
    # with nobody in them (launch gaps and the ragged end), from the start and end events.
    events = sorted([(t, 1) for t in starts] + [(t, -1) for t in ends])
    now = peak = 0
    for _, e in events:
        now += e
        peak = max(peak, now)
    idle_ns = (span_ns * peak - sum(e - s for s, e in zip(starts, ends))) / len(starts)
    first_wave = sorted(starts)[: max(1, len(starts) // 10)]
    out = {
        "file": path, "tile": "%dx%dx%d" % (head["bm"], head["bn"], head["bk"]), "workgroups": wgs,
        "subgroups": S, "slices": head["slices"], "span_us": span_ns / 1e3, "lifetime_us": life_ns / 1e3,
        "workgroups_alive": alive, "workgroups_alive_max": peak, "slot_idle_per_workgroup_us": idle_ns / 1e3,
        "phase_cycles_per_workgroup": {k: v / wgs / S for k, v in phase.items()}, "launch_spread_first_tenth_us": (max(first_wave) - t0) / 1e3,
        "ns_per_cycle": sorted(ns_per_cycle)[len(ns_per_cycle) // 2] if ns_per_cycle else None,
        "cycles_per_slice": sorted(slice_cycles)[len(slice_cycles) // 2] if slice_cycles else None,
        "barrier_arrival_spread_cycles": skew_sum / skew_n if skew_n else None,
        "share": {k: v / phase["total"] for k, v in phase.items() if k != "total"},
        "epilogue_rounds": rounds_seen,
        "epilogue_cycles_per_round": {k: v / wgs / S / max(1, min(rounds_seen, E)) for k, v in epi.items()},
    }
    out["share"]["untraced_slices"] = untraced / phase["total"]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("traces", nargs="+")
    ap.add_argument("--json", help="write the summaries here")
    a = ap.parse_args()
    res = []
    for t in a.traces:
        try:
            r = analyse(t)
        except (ValueError, OSError) as e:
            print(e, file=sys.stderr)
            return 1
        res.append(r)
        sh = r["share"]
        print("%s  tile %s, %d workgroups x %d subgroups, %d slices" % (t, r["tile"], r["workgroups"], r["subgroups"], r["slices"]))
        print("  span %.1f us, workgroup lifetime %.2f us, %.1f alive on average (%d at most; slots idle %.2f us per"
              " workgroup), first tenth launched within %.2f us"
              % (r["span_us"], r["lifetime_us"], r["workgroups_alive"], r["workgroups_alive_max"],
                 r["slot_idle_per_workgroup_us"], r["launch_spread_first_tenth_us"]))
        print("  cycles per subgroup: " + ", ".join("%s %.0f" % (k, v) for k, v in r["phase_cycles_per_workgroup"].items()))
        cps = r["cycles_per_slice"]
        print("  median slice %s cycles (%s ns/cycle), closing-barrier arrival spread %s cycles"
              % (cps, "%.3f" % r["ns_per_cycle"] if r["ns_per_cycle"] else "?",
                 "%.0f" % r["barrier_arrival_spread_cycles"] if r["barrier_arrival_spread_cycles"] is not None else "-"))
        print("  shares of a subgroup's lifetime: " + ", ".join("%s %.1f %%" % (k, 100 * v) for k, v in sh.items()))
        print("  epilogue: %d rounds, per round " % r["epilogue_rounds"] +
              ", ".join("%s %.0f" % (k, v) for k, v in r["epilogue_cycles_per_round"].items()) + " cycles")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
