// The routers' tile model, shared by the tiled algorithms (no timing): (useful work / padded work)
// x (wave fill) x (the tile's relative efficiency), and the modelled time of a split-K choice.
#pragma once
#include <algorithm>
#include <cmath>

#include "vkconv/conv_desc.hpp"

namespace vkconv {

// The tile score with the grid counted in waves: `slots` workgroups run at once (compute units x
// workgroups resident per unit), so 133 tiles on 132 slots cost two waves, the second nearly idle.
inline double waveTileScore(const ConvDesc& d, double bm, double bn, double efficiency, double slots) {
    double M = double(d.n) * double(d.outH()) * double(d.outW());
    double Kg = double(d.filtersPerGroup());
    double tm = std::ceil(M / bm), tn = std::ceil(Kg / bn);
    double tiles = tm * tn * double(d.groups);
    double useful = (M * Kg) / (tm * bm * tn * bn);
    double fill = tiles / (std::ceil(tiles / slots) * slots);
    return useful * fill * efficiency;
}

// Modelled time of one (tile, split) choice, in FLOPs at the best tile's full-wave rate: the
// work over waveTileScore (the grid counted as tiles x splits on `slots`), plus for splits > 1
// the workspace traffic (each split writes, the reduce pass reads, one fp32 copy of the output)
// at `flopsPerByte` and the second pass's fixed cost.  The routers compare candidates with it.
inline double splitTileCost(const ConvDesc& d, double bm, double bn, double efficiency, double slots, double splits,
                            double flopsPerByte, double passFlops) {
    double flops = 2.0 * double(d.n) * double(d.outH()) * double(d.outW()) * double(d.k) * double(d.reductionLength());
    double cost = flops / waveTileScore(d, bm, bn, efficiency, slots / splits);
    if (splits > 1) cost += 2.0 * splits * double(d.outputElements()) * 4.0 * flopsPerByte + passFlops;
    return cost;
}

// Compute units for the grid models: the driver's count, else a mid-size GPU's.
inline double modelComputeUnits(uint32_t reported) { return reported ? double(reported) : 64.0; }

}  // namespace vkconv
