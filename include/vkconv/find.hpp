// Measured algorithm selection, as cudnnFindConvolutionForwardAlgorithm and MIOpen's Find step:
// every configuration that accepts a problem is built and timed on the context's device, and the
// results come back fastest first.  "auto" (Plan::create) picks by models fitted on the cards we
// measured; find measures the card it runs on, so it is the way to the fastest plan on a card the
// models never saw (docs/design.md, "Find").
//
// Results are kept in the context's find database, in memory and next to the pipeline cache on
// disk (ContextCreateInfo::pipelineCacheDir), keyed by the device, its driver, vkconv's version,
// the ConvDesc and the PlanOptions that shape the candidates: a later find for the same problem
// returns them without timing (FindResult::fromDatabase).
//
// Find allocates its own tensors (random data; the caller's are never touched) and submits to the
// context's queue, waiting for each round: call it while planning, not inside a frame.
#pragma once
#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <string>
#include <vector>

#include "vkconv/conv_desc.hpp"
#include "vkconv/export.hpp"
#include "vkconv/plan.hpp"

namespace vkconv {

class Context;

struct FindOptions {
    // Timed rounds.  A round runs every candidate still in the race once, one after another in
    // one command buffer, so a change of the GPU's clock falls on all of them alike; a
    // candidate's time is its median over the rounds.
    uint32_t rounds = 5;
    // Calls per candidate and round are repeated until they take about this much GPU time
    // (back to back, each behind a compute barrier, as a network's layers run); at most 256.
    // Long enough that a call's first-after-another-candidate cost (caches, the pipeline switch)
    // is spread thin: at 100 µs a layer read ~40 % slow on the H200.
    double minIntervalUs = 500.0;
    // Untimed rounds first, at least this much wall time (50 ms where this context's last find
    // ended under 0.5 s ago), then until the fastest candidate's time has settled (at most 1 s
    // more): the GPU's clock falls while it idles (as it does while the candidates compile) and
    // comes back only under sustained load, on the H200 after ~0.5 s at its lowest
    // (docs/performance.md, "Floors and ceilings").  0 on a device with a fixed clock.
    double warmupMs = 1000.0;
    // A candidate slower than this many times the fastest after the first round leaves the race
    // (its first time is reported).
    double dropSlowerThan = 4.0;
    // Also time the variants an algorithm offers for tuning, not only its own heuristic choice
    // (winograd's F(2x2) and F(4x4); coopmat_nhwc with each matrix-unit kernel behind its
    // transposes).
    bool variants = true;
    // Also every tile configuration of the algorithms that have a tile list (implicit_gemm,
    // implicit_gemm_coopmat, halo_coopmat), each as a forced tile (one pass, no split-K): MIOpen's
    // exhaustive search.  Several times the candidates and the time; the router's tile choice was
    // within 1-3 % of the best tile on the H200 (docs/performance.md, "The router").
    bool exhaustive = false;
    // Read and record results in the context's find database.  false times afresh and records
    // nothing.
    bool useDatabase = true;
};

struct FindResult {
    std::string algorithm;  // Plan::algorithm()
    std::string config;     // Plan::config()
    // Pass these to Plan::create for exactly this plan (the base PlanOptions with the algorithm
    // and tile that made it).
    PlanOptions options;
    double microseconds = -1.0;  // median GPU time per call; < 0 where the candidate failed
    VkDeviceSize workspaceSize = 0;
    bool router = false;        // what "auto" picks
    bool fromDatabase = false;  // read from the find database, not timed by this call
    std::string error;          // why it could not be planned or timed ("" when it was timed)
};

// Every configuration that accepts `desc` under `options` (options.algorithm "auto": every
// algorithm; a named one: that algorithm and its variants), timed; fastest first, failures last.
// Throws Error like Plan::create for a problem nothing accepts, Error(Unsupported) on a
// planning-only context (Context::createOffline).
VKCONV_API std::vector<FindResult> findAlgorithms(Context& ctx, const ConvDesc& desc, const PlanOptions& options = {},
                                                  const FindOptions& find = {});

// The plan of findAlgorithms()'s fastest result.
VKCONV_API Plan findPlan(Context& ctx, const ConvDesc& desc, const PlanOptions& options = {},
                         const FindOptions& find = {});

// The same for a transposed convolution (the backward-data algorithms, with its epilogue; options
// as Plan::create(ctx, ConvTransposeDesc) takes them).  Its records are its own: "auto" on
// Plan::create(ctx, desc) then runs the winner.
VKCONV_API std::vector<FindResult> findAlgorithms(Context& ctx, const ConvTransposeDesc& desc,
                                                  const PlanOptions& options = {}, const FindOptions& find = {});
VKCONV_API Plan findPlan(Context& ctx, const ConvTransposeDesc& desc, const PlanOptions& options = {},
                         const FindOptions& find = {});

}  // namespace vkconv
