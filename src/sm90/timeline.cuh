// Timelines of the Hopper programs, for builds with CAKE_TIMELINE=1 (cmake
// -DCAKE_TIMELINE=ON): per CTA, when it started and ended, and per consumer
// warpgroup and tile, when its adapter was retired, its K loop ended, its outputs
// were staged and their store issued, and how long it waited for full stages.
// Read with `cake_bench --timeline FILE` and scripts/timeline.py. Without the
// option every use below compiles to nothing: the programs are the same code.
#pragma once

#include <cstdint>

#include "sm90/run_program.h"

#if CAKE_TIMELINE
#define CAKE_TIMELINE_ONLY(...) __VA_ARGS__
#else
#define CAKE_TIMELINE_ONLY(...)
#endif

namespace cake::sm90 {

#if CAKE_TIMELINE && defined(__CUDACC__)
// One CTA's words (run_program.h kTimelineCtaWords): [0, 1] global ns and SM clock
// when the producer starts (after the grid-dependency wait and the lora_scale load,
// right before its first load), [2, 3] when the CTA leaves (its first consumer
// warpgroup after the last stores' reads and, in pairs, the cluster barrier), [4] the
// SM clock when that warpgroup's last stores had been read (before the barrier); from
// kTimelineConsumerWord, per consumer warpgroup kTimelineTiles tiles of
// kTimelineTileWords: the clock at the tile's start, adapter retired, K loop ended,
// outputs staged, store issued; the cycles spent waiting for full stages in its K
// loop; the tile (tp << 16 | tq).
struct Timeline {
  // A tile's words (scripts/timeline.py reads them by the same numbers).
  enum Word { kStart, kAdapterRetired, kKLoopEnd, kStaged, kStoreIssued, kFullWait, kTileId };
  unsigned long long* tiles = nullptr;  // this warpgroup's; nullptr: not recorded here
  uint32_t tile = ~0u;  // this warpgroup's current tile (next_tile() moves on)
  uint32_t full_wait = 0;

  __device__ static unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
  }
  __device__ static unsigned long long clock() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
    return t;
  }
  // The CTA's words `base` (nullptr: this launch does not record).
  __device__ static void start(unsigned long long* base) {
    if (base) base[0] = global_ns(), base[1] = clock();
  }
  __device__ static void end(unsigned long long* base) {
    if (base) base[2] = global_ns(), base[3] = clock();
  }
  __device__ static void stores_read(unsigned long long* base) {
    if (base) base[4] = clock();
  }
  // Consumer warpgroup cw, thread `thread` of it: only its first thread records.
  __device__ void consumer(unsigned long long* base, int cw, int thread) {
    if (base && thread == 0) tiles = base + kTimelineConsumerWord + cw * kTimelineTiles * kTimelineTileWords;
  }
  __device__ void next_tile(uint32_t tp, uint32_t tq) {
    ++tile;
    set(kTileId, (tp << 16) | tq);
    full_wait = 0;
  }
  __device__ void stamp(Word what) { set(what, clock()); }
  __device__ void k_loop_end() {
    stamp(kKLoopEnd);
    set(kFullWait, full_wait);
  }

 private:
  // The current tile's word, where this warpgroup records and the tile is kept.
  __device__ void set(Word what, unsigned long long value) {
    if (tile < kTimelineTiles && tiles) tiles[tile * kTimelineTileWords + what] = value;
  }
};
#endif

}  // namespace cake::sm90
