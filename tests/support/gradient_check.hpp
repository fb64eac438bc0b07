// Runs a backward pass (or a transposed convolution) on the GPU with fresh random data and checks
// every element of each gradient against a float64 reference written for that pass: a scatter
// over dy for dx, a sum over N x P x Q for dw and db, independent of the forward reference's
// gather.  Outputs are poisoned before the run (with PlanOptions::accumulate they hold random old
// values that the reference adds).
#pragma once
#include <gtest/gtest.h>
#include <vkconv/vkconv.hpp>

#include <optional>
#include <string>
#include <vector>

#include "tensors.hpp"

namespace vkt {

struct GradCheck {
    bool ok = false;
    std::string error;  // what() of a vkconv::Error thrown on the way (then ok is false)
    std::optional<vkconv::ErrorCode> errorCode;
    std::string desc, pass, algorithm, config;
    uint64_t seed = 0;
    DataMode mode = DataMode::Uniform;
    int64_t checked = 0, failed = 0, nonFinite = 0;
    struct Worst {
        std::string tensor;  // "dx", "dw", "db", "output"
        int64_t index = -1;  // canonical (NCHW / KCRS) linear index
        double gpu = 0, ref = 0, tol = 0, absSum = 0;
        double score = -1;  // |diff| / tol
    } worst;
    std::string summary() const;
};

// The small layer the backward-pass tests start from: 2 images, 6 -> 5 channels, 9x7, 3x3, pad 1.
vkconv::ConvDesc gradientBase();
// A square ConvTranspose2d: in -> out channels on hw x hw, a k x k kernel, stride and padding.
vkconv::ConvTransposeDesc squareTransposed(int64_t in, int64_t out, int64_t hw, int64_t k, int64_t stride, int64_t pad);

// Why Plan::create declines d with o (it must decline as Unsupported: the skip message), "" where
// it accepts.
std::string declineReason(const vkconv::ConvDesc& d, const vkconv::PlanOptions& o);

// Backward-data of d (PlanOptions::pass is set here).
GradCheck checkDataGrad(const vkconv::ConvDesc& d, vkconv::PlanOptions opts, uint64_t seed,
                        DataMode mode = DataMode::Uniform);
// Backward-weight of d: dw, and db where d.hasBias.
GradCheck checkWeightGrad(const vkconv::ConvDesc& d, vkconv::PlanOptions opts, uint64_t seed,
                          DataMode mode = DataMode::Uniform);
// A transposed convolution with its epilogue.
GradCheck checkTransposed(const vkconv::ConvTransposeDesc& d, const vkconv::PlanOptions& opts, uint64_t seed,
                          DataMode mode = DataMode::Uniform);

::testing::AssertionResult passed(const GradCheck& r);

// How many descriptors a backward-pass sweep runs: `full`, or fewer where $VKCONV_SWEEP_COUNT
// asks for fewer (CI's lavapipe shards, as for the forward sweep: most of a cold lavapipe run is
// compiling each random descriptor's pipelines); the full counts run without it (ctest label
// "extended", scripts/device_run.sh tests on a GPU).
int gradientSweepCount(int full);

// float64 references on canonical-order data (activations NCHW, filters KCRS), exposed for the
// cross-pass identities.  dy is N x K x p x q (p, q: the dy extent; the forward output's unless a
// transposed convolution's output padding leaves it smaller).
void referenceDataGrad(const vkconv::ConvDesc& d, int64_t p, int64_t q, const std::vector<float>& dy,
                       const std::vector<float>& w, std::vector<double>& dx, std::vector<double>& absSum);
void referenceWeightGrad(const vkconv::ConvDesc& d, const std::vector<float>& x, const std::vector<float>& dy,
                         std::vector<double>& dw, std::vector<double>& dwAbs, std::vector<double>& db,
                         std::vector<double>& dbAbs);

}  // namespace vkt
