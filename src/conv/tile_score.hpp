// The router's tile score, shared by the tiled algorithms: (useful work / padded work) x
// (grid fill) x (the tile's relative efficiency).  No timing: kFillWorkgroups (256) concurrent
// workgroups stand in for "enough to fill a GPU".
#pragma once
#include <algorithm>
#include <cmath>

#include "vkconv/conv_desc.hpp"

namespace vkconv {

// Workgroups that stand in for "enough to fill a GPU" (no compute-unit count is queried).
constexpr double kFillWorkgroups = 256.0;

// splits: workgroups per output tile (split-K), 1 otherwise.
inline double tileScore(const ConvDesc& d, double bm, double bn, double efficiency, double splits = 1.0) {
    double M = double(d.n) * double(d.outH()) * double(d.outW());
    double Kg = double(d.filtersPerGroup());
    double tm = std::ceil(M / bm), tn = std::ceil(Kg / bn);
    double tiles = tm * tn * double(d.groups);
    double useful = (M * Kg) / (tm * bm * tn * bn);
    return useful * std::min(1.0, tiles * splits / kFillWorkgroups) * efficiency;
}

// The same with the grid counted in waves: `slots` workgroups run at once (compute units x
// workgroups resident per unit), so 133 tiles on 132 slots cost two waves, half of the second
// idle.  Used where the device reports its compute units.
inline double waveTileScore(const ConvDesc& d, double bm, double bn, double efficiency, double slots) {
    double M = double(d.n) * double(d.outH()) * double(d.outW());
    double Kg = double(d.filtersPerGroup());
    double tm = std::ceil(M / bm), tn = std::ceil(Kg / bn);
    double tiles = tm * tn * double(d.groups);
    double useful = (M * Kg) / (tm * bm * tn * bn);
    double fill = tiles / (std::ceil(tiles / slots) * slots);
    return useful * fill * efficiency;
}

}  // namespace vkconv
