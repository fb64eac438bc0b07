// The routers' tile model, shared by the tiled algorithms (no timing): (useful work / padded work)
// x (wave fill) x (the tile's relative efficiency), and the modelled time of a split-K choice.
#pragma once
#include <algorithm>
#include <cmath>

#include "vkconv/conv_desc.hpp"

namespace vkconv {

// The tile score with the grid counted in waves: `slots` workgroups run at once (compute units x
// workgroups resident per unit), so 133 tiles on 132 slots cost two waves, the second nearly idle.
// A grid that fits at once spreads over the units first (NVIDIA places a workgroup on the
// emptiest SM), k = ceil(tiles / units) to a unit.  With `units` and `lone` given, each of those k
// runs at the rate a workgroup alone on a unit reaches (`lone`: that rate as a share of the unit's
// full-occupancy throughput, measured per tile) until together they reach the full rate:
// g(k) = min(1, k x lone) of it.  A share above 1 (a workgroup alone outruns a full unit's worth
// of them: 64x64x64/2x4) is the tile's rate for every k:
// g(k) = min(max(1, lone), k x lone).  Without `units` and `lone`
// (lone = 0), each workgroup counts as 1/resident of a unit however few share it, which
// under-rates the small tiles on grids smaller than the GPU (docs/performance.md, "implicit_gemm_coopmat").
inline double waveTileScore(const ConvDesc& d, double bm, double bn, double efficiency, double slots, double units = 0,
                            double lone = 0) {
    double M = double(d.n) * double(d.outH()) * double(d.outW());
    double Kg = double(d.filtersPerGroup());
    double tm = std::ceil(M / bm), tn = std::ceil(Kg / bn);
    double tiles = tm * tn * double(d.groups);
    double useful = (M * Kg) / (tm * bm * tn * bn);
    double fill = tiles / (std::ceil(tiles / slots) * slots);
    if (lone > 0 && units > 0 && tiles < slots && slots > units) {  // several resident per unit
        double k = std::ceil(tiles / units);
        fill = std::min(std::max(1.0, lone), k * lone) * tiles / (k * units);
    }
    return useful * fill * efficiency;
}

// Modelled time of one (tile, split) choice, in FLOPs at the best tile's full-wave rate: the
// work over waveTileScore (the grid counted as tiles x splits on `slots`), plus for splits > 1
// the workspace traffic (each split writes, the reduce pass reads, one fp32 copy of the output)
// at `flopsPerByte` and the second pass's fixed cost.  The routers compare candidates with it.
// `units` and `lone`: as waveTileScore's (0: every workgroup 1/resident of a unit).
inline double splitTileCost(const ConvDesc& d, double bm, double bn, double efficiency, double slots, double splits,
                            double flopsPerByte, double passFlops, double units = 0, double lone = 0) {
    double flops = 2.0 * double(d.n) * double(d.outH()) * double(d.outW()) * double(d.k) * double(d.reductionLength());
    double cost = flops / waveTileScore(d, bm, bn, efficiency, slots / splits, units / splits, lone);
    if (splits > 1) cost += 2.0 * splits * double(d.outputElements()) * 4.0 * flopsPerByte + passFlops;
    return cost;
}

}  // namespace vkconv
