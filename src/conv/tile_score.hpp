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

}  // namespace vkconv
