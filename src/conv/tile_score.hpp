// The router's tile score, shared by the tiled algorithms: (useful work / padded work) x
// (grid fill) x (the tile's relative efficiency).  No timing: `fillTarget` concurrent workgroups
// stand in for "enough to fill a GPU" (256 for the scalar tiles; the cooperative-matrix tiles keep
// a multiprocessor's matrix units busy with far fewer, see algo_coopmat.cpp).
#pragma once
#include <algorithm>
#include <cmath>

#include "vkconv/conv_desc.hpp"

namespace vkconv {

inline double tileScore(const ConvDesc& d, double bm, double bn, double efficiency, double fillTarget = 256.0) {
    double M = double(d.n) * double(d.outH()) * double(d.outW());
    double Kg = double(d.filtersPerGroup());
    double tm = std::ceil(M / bm), tn = std::ceil(Kg / bn);
    double tiles = tm * tn * double(d.groups);
    double useful = (M * Kg) / (tm * bm * tn * bn);
    return useful * std::min(1.0, tiles / fillTarget) * efficiency;
}

}  // namespace vkconv
