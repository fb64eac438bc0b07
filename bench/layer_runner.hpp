// Times one layer (one shape x batch x dtype x layout) with every algorithm --algo selects.
#pragma once
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "common.hpp"
#include "shapes.hpp"
#include "vkconv/context.hpp"
#include "vkconv/plan.hpp"

namespace vkbench {

class LayerRunner {
public:
    LayerRunner(vkconv::Context& ctx, const Options& opts);

    // Rows for this layer (one per algorithm run).  Declined algorithms and skipped layers
    // (--max-gflop, device limits) produce no row; their reasons are appended to `notes`.
    std::vector<Row> run(const Shape& shape, int64_t batch, vkconv::DType dtype, vkconv::TensorLayout layout,
                         std::vector<std::string>& notes);

    bool gpuTimestamps() const { return timestamps_; }
    // Layers no algorithm could run (an invalid row, a feature the device lacks): with --check
    // each counts as a failure, since what was asked could not be checked.
    int unrunnable() const { return unrunnable_; }

private:
    Row runOne(const std::string& algo, const Row& base, struct LayerData& data);
    // --find: the fastest candidate of vkconv::findAlgorithms (all of them recorded in `row`).
    vkconv::Plan findPlan(const LayerProblem& prob, const vkconv::PlanOptions& po, Row& row);
    // --passes: `repeats` calls in one submission with a timestamp after every dispatch; each
    // dispatch's shader and median time over the calls.
    std::vector<std::pair<std::string, double>> timePasses(const std::function<void(VkCommandBuffer)>& recordCall,
                                                           int repeats);
    vkconv::Context& ctx_;
    const Options& opts_;
    bool timestamps_;
    // When the GPU last finished work of this runner: a long idle gap before a layer (pipeline
    // compiles, data generation) lets the clock fall, and the warm-up then runs longer.
    std::chrono::steady_clock::time_point lastGpuWork_{};
    int unrunnable_ = 0;
};

}  // namespace vkbench
