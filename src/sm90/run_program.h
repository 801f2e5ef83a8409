// One Hopper program instantiation: sets its shared-memory limit (once per device)
// and launches it with programmatic dependent launch. Defined in program_launch.cuh,
// instantiated once per program in programs/*.cu so they compile in parallel.
#pragma once

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

#include "sm90/config.h"

namespace cake::sm90 {

// L2 eviction hints of TMA loads: CuTe's CacheHintSm90 values (createpolicy
// encodings), spelled here for the host code, which is built without CuTe;
// primitives.cuh checks them against CuTe's.
inline constexpr uint64_t kEvictNormal = 0x1000000000000000ull;
inline constexpr uint64_t kEvictFirst = 0x12F0000000000000ull;

struct ProgramParams {
  uint32_t tiles_p, tiles_q, raster_group;
  uint32_t k_blocks;     // ceil(K / kStageK)
  uint32_t lora_chunks;  // ceil(r / kLoraChunk); 0 when no adapter was passed
  uint32_t lora_steps;   // r / 16: BF16 wgmma instructions over the whole rank
  uint32_t n;            // columns of out (bias length)
  uint32_t split;        // CTAs per cluster sharing a tile's K loop (1: none)
  uint32_t multicast;    // CTAs per cluster sharing a P tile (or Q: config.h kPairsShareQ) by TMA multicast (1: none)
  // Rows of a P / Q tile: the tile, or fewer when the operand is shorter (then it
  // is one tile); with multicast each CTA's box of the shared tile is a
  // multicast-th of them.
  // Narrow-tile programs (config.h kNarrowTiles) start P tiles every p_rows rows,
  // the others every kBlockP (the same whenever there are several).
  uint32_t p_rows, q_rows;
  // Rows of the last P and Q tiles' boxes per CTA (of a shared tile: each CTA's
  // part) where the operand ends inside that tile: its rows there, rounded up to
  // 8; 0 where the last tile's boxes are the others'.
  uint32_t p_last_rows, q_last_rows;
  // L2 eviction hints of the P and Q loads (their adapter operands' too): an
  // operand whose every tile is read by one CTA (or one pair, by multicast) streams
  // through L2 once, evict first, so that it does not push out what the other CTAs
  // still read (the other operand, out); otherwise normal.
  uint64_t p_hint, q_hint;
  const float* a_scale;
  const float* b_scale;
  const float* lora_scale;    // nullptr: adapter off
  const __nv_bfloat16* bias;  // nullptr: no bias
  bool narrow;  // P tiles narrower than the block (config.h kNarrowTiles)
#if CAKE_TIMELINE
  unsigned long long* timeline;  // this launch's region of the timelines; nullptr: none (timeline.cuh)
#endif
};

#if CAKE_TIMELINE
// Timelines (timeline.cuh): kTimelineCtaWords 64-bit words per CTA, for up to
// kTimelineCtas CTAs per launch and kTimelineRegions regions of a call; the
// benchmark sets g_timeline to a buffer of kTimelineWords (nullptr: off).
inline constexpr int kTimelineTiles = 8, kTimelineTileWords = 8, kTimelineConsumerWord = 32;
inline constexpr int kTimelineWarpgroups = 3;  // the most consumer warpgroups of any program
inline constexpr int kTimelineCtaWords =
    kTimelineConsumerWord + kTimelineWarpgroups * kTimelineTiles * kTimelineTileWords;
inline constexpr int kTimelineCtas = 256, kTimelineRegions = 2;
inline constexpr int kTimelineRegionWords = kTimelineCtas * kTimelineCtaWords;
inline constexpr int kTimelineWords = kTimelineRegions * kTimelineRegionWords;
extern unsigned long long* g_timeline;
#endif

// The operands' tensor maps, passed to the kernel as one parameter. The `_last`
// ones box the last P / Q tile's rows only (ProgramParams p_last_rows, q_last_rows).
struct TensorMaps {
  CUtensorMap p, q, lora_p, lora_q, out;
  CUtensorMap p_last, q_last, lora_p_last, lora_q_last;
};

// promotion_k: config.h kPromotionShortK or kPromotionLongK. share_q: pairs lie
// along P, sharing the Q tile (the program's kPairsShareQ, or with
// kPairsBothWays either).
template <typename Shape>
void run_program(const TensorMaps& maps, const ProgramParams& params, int promotion_k, bool share_q, int grid,
                 int device, cudaStream_t stream);

// How many clusters of `split` CTAs of this program can be resident at once on
// the current device (cudaOccupancyMaxActiveClusters).
template <typename Shape>
int max_active_clusters(int split);

#define CAKE_SM90_EXTERN(program_, shape_)              \
  extern template int max_active_clusters<shape_>(int); \
  extern template void run_program<shape_>(const TensorMaps&, const ProgramParams&, int, bool, int, int, cudaStream_t);
CAKE_SM90_PROGRAMS(CAKE_SM90_EXTERN)
#undef CAKE_SM90_EXTERN

// The explicit instantiations of one program (its file in programs/).
#define CAKE_SM90_INSTANTIATE(shape_)                                                                     \
  template void run_program<shape_>(const TensorMaps&, const ProgramParams&, int, bool, int, int, cudaStream_t); \
  template int max_active_clusters<shape_>(int);

}  // namespace cake::sm90
