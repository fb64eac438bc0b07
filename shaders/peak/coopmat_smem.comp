#version 460
// Peak probe: cooperative-matrix throughput with every fragment loaded from shared memory
// (vkconv-bench --peak, fp16 16x16x16 with fp32 accumulation).  peak/coopmat.comp keeps its
// fragments in registers; the convolution kernels load every A and B fragment of every 16-deep
// step from their staged tile.  This probe is the kernels' slice loop without global loads, laid
// out as implicit_gemm_coopmat lays out its tile: WARPS_M x WARPS_N subgroups, each FM x FN
// accumulators, staged rows of KS * 16 values plus one 16-byte padding word (an odd stride in
// 16-byte words, so a fragment's 8 rows fall in distinct banks), A row-major, B column-major.
// The specialization constants below add a real slice's parts one at a time (a closing barrier;
// the tile restaged single- or double-buffered; per-subgroup staging; B held in registers), so
// each row's rate is the ceiling of any kernel with that structure (docs/performance.md, "Floors and ceilings").
//
// Exactness: A's row m holds a single 1 at k == (m + shift) % 16 and B is all ones, so every
// product element is exactly 1 whatever the fragment; the FM x FN accumulators summed end at
// FM * FN * KS * iters in every element.  `rot` (0 at run time) moves the fragment rows with the
// iteration so that the compiler cannot hoist the loads out of the loop.
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x_id = 0) in;  // WARPS_M * WARPS_N subgroups
layout(constant_id = 1) const uint WARPS_M = 2;
layout(constant_id = 2) const uint WARPS_N = 4;
layout(constant_id = 3) const uint FM = 4;
layout(constant_id = 4) const uint FN = 4;
layout(constant_id = 5) const uint KS = 2;          // 16-deep steps per staged slice
layout(constant_id = 6) const bool BARRIER = false;  // a workgroup barrier closing each slice
// Off: the B fragments are loaded once, before the loop, and held in registers (half the
// fragment traffic: how much of the rate shared memory's bandwidth holds).
layout(constant_id = 7) const bool LOAD_B = true;
// On: each slice ends as a single-buffered kernel's does: a barrier, every invocation stores its
// share of the staged tile again (the same values, held in registers as a kernel's prefetched
// global loads are: the staging stores without global loads), a second barrier.
layout(constant_id = 8) const bool STAGE = false;
// With STAGE: each subgroup stages its own A and B rows in a region of its own (twice the staging
// stores of a shared tile, no sharing between subgroups) between two subgroup barriers; no
// workgroup barrier in the loop.
layout(constant_id = 9) const bool PRIVATE = false;
layout(constant_id = 10) const uint SG = 32;  // the subgroup size (PRIVATE: words per lane)
// Shared memory beyond the tile, in 16-byte words (written once, never read): how much shared
// memory per workgroup the driver lets share an SM (its carveout) at this workgroup's size.
layout(constant_id = 12) const uint PAD = 0;
// With STAGE: two copies of the tile; each slice multiplies one and stores the other, then one
// barrier (a double-buffered kernel's slice without its global loads).
layout(constant_id = 11) const bool DOUBLE = false;
// On: B is not staged at all.  Each lane loads its own elements of every B fragment straight from
// a storage buffer laid out in fragment order (one 16-byte word per lane and 16x16 fragment at 32
// lanes), one slice ahead, and writes them into the matrix element by element: the structure of
// a kernel whose filters are pre-packed in the matrix units' register layout, so that only A is
// restaged through shared memory.  B is all ones, so the lanes' element order does not matter here.
layout(constant_id = 13) const bool GLOBAL_B = false;
const uint B_SLICES = 64u;  // slices of B in the buffer, cycled (L2-resident, as a layer's filters)

layout(push_constant) uniform SmemParams { uint iters; uint rot; } pc;
layout(set = 0, binding = 0, std430) writeonly buffer OutBuf { float out_[]; };
layout(set = 0, binding = 1, std430) readonly buffer BBuf { uvec4 bw[]; };

const uint NSG = WARPS_M * WARPS_N;
const uint LD = KS * 2u + 1u;  // 16-byte words per staged row
// One region (the workgroup's tile), or one per subgroup (PRIVATE); 8 rows of slack after each of
// its A and B parts for the (never taken) shift.
const uint A_ROWS = (PRIVATE ? FM : WARPS_M * FM) * 16u + 8u;
const uint B_ROWS = GLOBAL_B ? 0u : (PRIVATE ? FN : WARPS_N * FN) * 16u + 8u;
const uint REGION = (A_ROWS + B_ROWS) * LD;
const uint WORDS = (PRIVATE ? NSG : 1u) * REGION;  // one copy
const bool TWO = DOUBLE && STAGE && !PRIVATE;
const uint USED = TWO ? 2u * WORDS : WORDS;
shared uvec4 smem[USED + PAD];
// Staged words per invocation: of the tile, or of the subgroup's region.
// Restaging stores the data words only (rows x KS * 2), as a kernel stages its slice, in
// implicit_gemm_coopmat's conflict-free order (its STAGED_ROW; docs/performance.md, "implicit_gemm_coopmat"): data word d is word
// d % KV of item row d / KV, and within each group of 8 item rows, 8 / KV rows KV apart go to one
// group of 8 invocations, so that every 8 invocations' stores fall in 8 distinct bank groups.
const uint KV = KS * 2u;                         // data words per row
const uint DATA = (A_ROWS + B_ROWS) * KV;        // data words per region (A_ROWS, B_ROWS: multiples of 8)
uint stagedRow(uint r) { return KV < 8u ? (r & ~7u) | (((r & 7u) % (8u / KV)) * KV + (r & 7u) / (8u / KV)) : r; }
const uint MINE = PRIVATE ? (DATA + SG - 1u) / SG : (DATA + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;

#define MAT_A coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>
#define MAT_B coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB>
#define MAT_C coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>
const uint ELEMS = 256u / SG;                             // a 16x16 fragment's elements per lane
const uint BWORDS = ELEMS >= 8u ? ELEMS / 8u : 1u;        // 16-byte words per lane and fragment
const uint NB = GLOBAL_B ? FN * KS * BWORDS : 1u;         // words per lane and slice

// Staged word e: 8 values per word, channels 8w .. 8w+7 of its row; A rows hold their 1 at
// k == row % 16 of every 16-deep step, B rows are all ones, padding words zero.
uvec4 stagedWord(uint e) {
    const uint one = 0x3C00u;  // fp16 1.0
    uint row = (e % REGION) / LD, w = e % LD;
    uvec4 v = uvec4(0u);
    if (w < KS * 2u) {
        if (row < A_ROWS) {
            uint k = row % 16u, first = (w * 8u) % 16u;
            if (k >= first && k < first + 8u) v[(k - first) >> 1] = one << (((k - first) & 1u) * 16u);
        } else {
            v = uvec4(one | (one << 16));
        }
    }
    return v;
}

void main() {
    const uint tid = gl_LocalInvocationID.x, wgSize = gl_WorkGroupSize.x;
    for (uint e = tid; e < USED; e += wgSize) smem[e] = stagedWord(e);
    for (uint e = USED + tid; e < USED + PAD; e += wgSize) smem[e] = uvec4(0u);
    barrier();

    const uint warp = gl_SubgroupID, wm = warp / WARPS_N, wn = warp % WARPS_N, lane = gl_SubgroupInvocationID;
    // This subgroup's fragment rows: its block of the tile, or its own region.
    const uint region = PRIVATE ? warp * REGION : 0u;
    const uint aRow0 = PRIVATE ? 0u : wm * FM * 16u, bRow0 = A_ROWS + (PRIVATE ? 0u : wn * FN * 16u);
    // STAGE: this invocation's share of the staged words, computed once.
    // STAGE: this invocation's data words (their word offsets within the region, and values),
    // computed once.
    const uint first = PRIVATE ? lane : tid, step = PRIVATE ? SG : wgSize;
    uvec4 mine[STAGE ? MINE : 1u];
    uint at[STAGE ? MINE : 1u];
    if (STAGE)
        [[unroll]] for (uint i = 0u; i < MINE; ++i) {
            uint d = first + i * step;
            at[i] = d < DATA ? region + stagedRow(d / KV) * LD + d % KV : ~0u;
            mine[i] = d < DATA ? stagedWord(at[i]) : uvec4(0u);
        }
    MAT_C acc[FM * FN];
    [[unroll]] for (uint f = 0u; f < FM * FN; ++f) acc[f] = MAT_C(0.0);
    MAT_B held[LOAD_B ? 1u : FN * KS];
    if (!LOAD_B)
        [[unroll]] for (uint f = 0u; f < FN * KS; ++f)
            coopMatLoad(held[f], smem, region + (bRow0 + (f % FN) * 16u) * LD + (f / FN) * 2u, LD,
                        gl_CooperativeMatrixLayoutColumnMajor);
    // GLOBAL_B: this lane's words of B for the next slice, in flight during this slice's products.
    uvec4 nextB[NB];
    const uint bLane = (wn * NB) * SG + lane;  // word w of slice s: (s * WARPS_N * NB + wn * NB + w) * SG + lane
    if (GLOBAL_B)
        [[unroll]] for (uint w = 0u; w < NB; ++w) nextB[w] = bw[bLane + w * SG];
    for (uint it = 0u; it < pc.iters; ++it) {
        const uint shift = (it * pc.rot) & 7u;
        uvec4 curB[NB];
        if (GLOBAL_B) {
            [[unroll]] for (uint w = 0u; w < NB; ++w) curB[w] = nextB[w];
            const uint s = (it + 1u + pc.rot) % B_SLICES;
            [[unroll]] for (uint w = 0u; w < NB; ++w) nextB[w] = bw[s * WARPS_N * NB * SG + bLane + w * SG];
        }
        const uint copy = TWO ? (it & 1u) * WORDS : 0u;  // the copy this slice multiplies
        const uint aBase = copy + region + (aRow0 + shift) * LD, bBase = copy + region + (bRow0 + shift) * LD;
        [[unroll]] for (uint ks = 0u; ks < KS; ++ks) {
            MAT_B b[FN];
            [[unroll]] for (uint j = 0u; j < FN; ++j) {
                if (GLOBAL_B) {
                    [[unroll]] for (uint e = 0u; e < ELEMS; ++e) {
                        uvec4 word = curB[(ks * FN + j) * BWORDS + e / 8u];
                        b[j][e] = unpackFloat2x16(word[(e / 2u) % 4u])[e % 2u];
                    }
                } else if (LOAD_B)
                    coopMatLoad(b[j], smem, bBase + j * 16u * LD + ks * 2u, LD, gl_CooperativeMatrixLayoutColumnMajor);
                else
                    b[j] = held[ks * FN + j];
            }
            [[unroll]] for (uint i = 0u; i < FM; ++i) {
                MAT_A a;
                coopMatLoad(a, smem, aBase + i * 16u * LD + ks * 2u, LD, gl_CooperativeMatrixLayoutRowMajor);
                [[unroll]] for (uint j = 0u; j < FN; ++j) acc[i * FN + j] = coopMatMulAdd(a, b[j], acc[i * FN + j]);
            }
        }
        if (STAGE && PRIVATE) {
            subgroupMemoryBarrierShared();
            subgroupBarrier();
            [[unroll]] for (uint i = 0u; i < MINE; ++i)
                if (at[i] != ~0u) smem[at[i]] = mine[i];
            subgroupMemoryBarrierShared();
            subgroupBarrier();
        } else if (TWO) {
            // The other copy: every subgroup finished reading it before the previous barrier.
            [[unroll]] for (uint i = 0u; i < MINE; ++i)
                if (at[i] != ~0u) smem[(WORDS - copy) + at[i]] = mine[i];
            barrier();
        } else {
            if (BARRIER || STAGE) barrier();
            if (STAGE) {
                [[unroll]] for (uint i = 0u; i < MINE; ++i)
                    if (at[i] != ~0u) smem[at[i]] = mine[i];
                barrier();
            }
        }
    }
    MAT_C sum = acc[0];
    [[unroll]] for (uint f = 1u; f < FM * FN; ++f) sum += acc[f];
    uint subgroup = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_NumSubgroups + warp;
    coopMatStore(sum, out_, subgroup * 256u, 16u, gl_CooperativeMatrixLayoutRowMajor);
}
