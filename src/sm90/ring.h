// Which ring stages hold what: the arithmetic the producer and the consumers of a
// program must agree on, kept apart from the kernel so that tests/cpp/test_ring.cpp
// checks it on the CPU for every program (a disagreement would be a hang or a
// partial sum in the wrong place, not a wrong number one could see).
#pragma once

#include <cstdint>

#include "sm90/config.h"

namespace cake::sm90 {

template <class Shape>
struct Ring {
  static constexpr uint32_t kStageBlocks = Shape::kStageBlocks;
  static constexpr uint32_t kStages = Shape::kStages;
  static constexpr uint32_t kBytes = kStages * Shape::kStageBytes;
  static constexpr uint32_t kPer = Shape::kPartialsPerStage;

  // Stages that `blocks` blocks fill (K blocks or adapter slices, kStageBlocks a stage).
  static constexpr uint32_t stages(uint32_t blocks) { return (blocks + kStageBlocks - 1) / kStageBlocks; }

  // Whether stages [begin, end) of a run of `blocks` blocks end in an odd last stage:
  // one block where a stage holds two. The producer loads it alone and the consumer
  // runs one block's groups on it.
  static constexpr bool ends_odd(uint32_t begin, uint32_t end, uint32_t blocks) {
    return kStageBlocks > 1 && end > begin && end * kStageBlocks > blocks;
  }

  // Split-K: a CTA's share of a tile's K loop. An adapter stage streams as many
  // bytes as a K stage, and the leader (rank 0) streams all of them: the `units`
  // [the leader's `lead_units` adapter stages, the K stages] are split evenly over
  // the cluster, so that the leader takes that many fewer K stages and the cluster's
  // CTAs finish together. Rank r's K stages are [k_stage_of(r), k_stage_of(r + 1)).
  static constexpr uint32_t k_stage_of(uint32_t r, uint32_t split, uint32_t units, uint32_t lead_units) {
    const uint32_t unit = r * units / split;
    return unit > lead_units ? unit - lead_units : 0u;
  }
  // The leader's ring entries per tile before its landing stages: its adapter's
  // stages and its K stages.
  static constexpr uint32_t lead_entries(uint32_t split, uint32_t units, uint32_t lead_units) {
    return k_stage_of(1, split, units, lead_units) + lead_units;
  }

  // Split-K landing: rank r's partial sums land in kPartialStages consecutive stages
  // of the leader's ring (wrapping around it), or in a kPartialsPerStage-th of one
  // (ranks 1.., kPartialsPerStage to a stage), as 2048-byte blocks: block b holds
  // registers 4b'..4b'+3 of consumer warpgroup b / (kAccRegs / 4), where
  // b' = b % (kAccRegs / 4), 16 bytes per thread.
  // Landing stages per tile, for split - 1 ranks, reserved by the leader's producer
  // after its adapter and K stages, kPartialStages for each kPer ranks in turn.
  static constexpr uint32_t landing_stages(uint32_t split) {
    return (split - 2 + kPer) / kPer * Shape::kPartialStages;
  }
  // Rank r's first stage, from the first landing stage: its partial sums complete
  // on that stage's barrier.
  static constexpr uint32_t rank_stage(uint32_t first_landing, uint32_t r) {
    return (first_landing + (r - 1) / kPer * Shape::kPartialStages) % kStages;
  }
  // The ring offset of rank r's block b, from its first stage.
  static constexpr uint32_t landing(uint32_t rank_first, uint32_t r, int b) {
    const uint32_t offset = rank_first * Shape::kStageBytes + (r - 1) % kPer * Shape::kPartialBytes + b * 2048;
    return offset >= kBytes ? offset - kBytes : offset;
  }
};

}  // namespace cake::sm90
