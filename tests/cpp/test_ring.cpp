// The ring arithmetic that a program's producer and consumers must agree on
// (src/sm90/ring.h), for every program, on the CPU: which K stages each CTA of a
// split-K cluster takes, the odd last stage of two-block stages, and where the
// other CTAs' partial sums land in the leader's ring. On the GPU a disagreement is
// a hang or a partial sum added in the wrong place; here it is a failed assertion
// naming the program and the case.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sm90/config.h"
#include "sm90/programs.h"
#include "sm90/ring.h"

namespace {

using cake::sm90::kPrograms;
using cake::sm90::with_shape;

// K blocks to walk: every count up to 160, and long K (K = 65536 is 512 blocks).
std::vector<uint32_t> k_block_counts() {
  std::vector<uint32_t> counts;
  for (uint32_t k = 1; k <= 160; ++k) counts.push_back(k);
  for (uint32_t k : {255u, 256u, 257u, 511u, 512u}) counts.push_back(k);
  return counts;
}

template <class Shape>
void check_stages() {
  using Ring = cake::sm90::Ring<Shape>;
  static_assert(Ring::kStageBlocks == 1 || Ring::kStageBlocks == 2, "the odd last stage holds one block");
  for (uint32_t blocks = 1; blocks <= 600; ++blocks) {
    const uint32_t stages = Ring::stages(blocks);
    ASSERT_GE(stages * Ring::kStageBlocks, blocks);
    ASSERT_LT((stages - 1) * Ring::kStageBlocks, blocks);
    // Every range of stages: whole stages, and one block in an odd last stage, which
    // only the range that ends on the run's last stage has.
    for (uint32_t begin = 0; begin <= stages; ++begin)
      for (uint32_t end = begin; end <= stages; ++end) {
        const bool odd = Ring::ends_odd(begin, end, blocks);
        const bool expect = end > begin && end == stages && blocks % Ring::kStageBlocks != 0;
        ASSERT_EQ(odd, expect) << "blocks " << blocks << " stages [" << begin << ", " << end << ")";
      }
  }
  // The adapter: the producer loads stages(chunks) stages of 64-wide BF16 slices; the
  // consumer issues r / 16 instructions, kLoraChunk * 2 / 32 per slice, in as many
  // stages (program.cuh, issue_adapter).
  for (uint32_t r : {32u, 64u, 128u}) {
    const uint32_t chunks = (r + cake::sm90::kLoraChunk - 1) / cake::sm90::kLoraChunk;
    const uint32_t steps = r / 16, stage_steps = Ring::kStageBlocks * (cake::sm90::kLoraChunk * 2 / 32);
    EXPECT_EQ(Ring::stages(chunks), (steps + stage_steps - 1) / stage_steps) << "r = " << r;
  }
}

// Split-K shares: the ranks' K stages cover the tile's once, in rank order, and the
// work units (the leader's adapter stages counting as K stages) are even to one.
template <class Shape>
void check_shares() {
  using Ring = cake::sm90::Ring<Shape>;
  for (uint32_t split = 2; split <= static_cast<uint32_t>(Shape::kMaxSplit); split *= 2)
    for (uint32_t k_blocks : k_block_counts())
      for (uint32_t lead_units : {0u, Ring::stages(1), Ring::stages(2)}) {
        const uint32_t k_stages = Ring::stages(k_blocks), units = k_stages + lead_units;
        const std::string at = "split " + std::to_string(split) + ", " + std::to_string(k_blocks) +
                               " K blocks, " + std::to_string(lead_units) + " adapter stages";
        ASSERT_EQ(Ring::k_stage_of(0, split, units, lead_units), 0u) << at;
        ASSERT_EQ(Ring::k_stage_of(split, split, units, lead_units), k_stages) << at;
        uint32_t blocks = 0, odd_ranks = 0, fewest = units, most = 0, leader_entries = 0;
        for (uint32_t r = 0; r < split; ++r) {
          const uint32_t begin = Ring::k_stage_of(r, split, units, lead_units);
          const uint32_t end = Ring::k_stage_of(r + 1, split, units, lead_units);
          ASSERT_LE(begin, end) << at << ", rank " << r;
          const uint32_t rank_units = end - begin + (r == 0 ? lead_units : 0);
          if (r == 0) leader_entries = rank_units;  // the leader's adapter and K stages
          fewest = rank_units < fewest ? rank_units : fewest;
          most = rank_units > most ? rank_units : most;
          // What the producer loads for [begin, end): whole stages and an odd last block.
          const bool odd = Ring::ends_odd(begin, end, k_blocks);
          blocks += (end - begin) * Ring::kStageBlocks - (odd ? 1 : 0);
          odd_ranks += odd ? 1 : 0;
        }
        EXPECT_EQ(blocks, k_blocks) << at;
        EXPECT_EQ(odd_ranks, k_blocks % Ring::kStageBlocks) << at;
        // Even but for the leader's adapter when it has more stages than its share.
        if (lead_units <= units / split) EXPECT_LE(most - fewest, 1u) << at;
        // What the others take for the leader's ring entries before the landing.
        EXPECT_EQ(Ring::lead_entries(split, units, lead_units), leader_entries) << at;
      }
}

// The landing over a run of tiles, as the leader's producer reserves it (its adapter
// and K stages, then kPartialStages stages for each kPartialsPerStage ranks in
// turn) against where the other ranks write (each following the leader's ring
// position from tile to tile) and where the leader's consumers read.
template <class Shape>
void check_landing() {
  using Ring = cake::sm90::Ring<Shape>;
  constexpr uint32_t kStages = Ring::kStages, kStageBytes = Shape::kStageBytes;
  constexpr uint32_t kPartialStages = Shape::kPartialStages, kPer = Ring::kPer;
  constexpr int kBlocks = Shape::kPartialBytes / 2048;
  for (uint32_t split = 2; split <= static_cast<uint32_t>(Shape::kMaxSplit); split *= 2) {
    // The leader's ring holds all the landing stages at once, with a stage to spare.
    ASSERT_LE(Ring::landing_stages(split), kStages - 1) << "split " << split;
    for (uint32_t k_blocks : {1u, 2u, 3u, 7u, 16u, 33u, 100u, 257u})
      for (uint32_t lead_units : {0u, Ring::stages(2)}) {
        const uint32_t units = Ring::stages(k_blocks) + lead_units;
        // The leader's adapter and K stages, as its producer loads them; the others
        // take lead_entries for it.
        const uint32_t leader_entries = lead_units + Ring::k_stage_of(1, split, units, lead_units);
        const uint32_t lead = Ring::lead_entries(split, units, lead_units);
        uint32_t leader_stage = 0;  // the leader's ring position (its producer's and consumers')
        uint32_t follower = 0;      // the others' record of it (lead_stage in program.cuh)
        for (int tile = 0; tile < 3 * static_cast<int>(kStages); ++tile) {
          const std::string at = "split " + std::to_string(split) + ", " + std::to_string(k_blocks) +
                                 " K blocks, tile " + std::to_string(tile);
          ASSERT_EQ(follower, leader_stage) << at;
          leader_stage = (leader_stage + leader_entries) % kStages;
          const uint32_t s0 = leader_stage;  // the first landing stage
          // The producer's reservation: stage -> the ranks' group it holds.
          std::vector<int> owner(kStages, -1);
          uint32_t reserved = 0;
          for (uint32_t r = 1; r < split; r += kPer)
            for (uint32_t s = 0; s < kPartialStages; ++s, ++reserved) {
              ASSERT_EQ(owner[leader_stage], -1) << at << ": a stage reserved twice";
              owner[leader_stage] = static_cast<int>(r);
              leader_stage = (leader_stage + 1) % kStages;
            }
          ASSERT_EQ(reserved, Ring::landing_stages(split)) << at;
          // Every byte of the landing written by one rank at most.
          std::vector<uint8_t> written(kStages * kStageBytes / 2048, 0);
          for (uint32_t r = 1; r < split; ++r) {
            const uint32_t first = Ring::rank_stage(follower + lead, r);  // where rank r writes
            ASSERT_EQ(first, Ring::rank_stage(s0, r)) << at << ", rank " << r << ": the leader reads elsewhere";
            const int group = static_cast<int>(1 + (r - 1) / kPer * kPer);
            ASSERT_EQ(owner[first], group) << at << ", rank " << r << ": its first stage is not its group's";
            for (int b = 0; b < kBlocks; ++b) {
              const uint32_t offset = Ring::landing(first, r, b);
              ASSERT_EQ(offset % 2048, 0u);
              ASSERT_LE(offset + 2048, Ring::kBytes) << at << ": a block past the ring's end";
              ASSERT_EQ(owner[offset / kStageBytes], group) << at << ", rank " << r << ", block " << b
                                                             << ": outside its group's stages";
              ASSERT_EQ(written[offset / 2048]++, 0) << at << ", rank " << r << ", block " << b << ": written twice";
            }
          }
          follower = (follower + lead + Ring::landing_stages(split)) % kStages;
        }
      }
  }
}

TEST(Ring, StagesAndTheOddLastStage) {
  for (auto program : kPrograms) {
    SCOPED_TRACE(cake::program_name(program));
    with_shape(program, [](auto shape) { check_stages<decltype(shape)>(); });
  }
}

TEST(Ring, SplitKSharesCoverTheTileOnce) {
  for (auto program : kPrograms) {
    SCOPED_TRACE(cake::program_name(program));
    with_shape(program, [](auto shape) { check_shares<decltype(shape)>(); });
  }
}

TEST(Ring, SplitKPartialSumsLandWhereTheLeaderReservedAndReads) {
  for (auto program : kPrograms) {
    SCOPED_TRACE(cake::program_name(program));
    with_shape(program, [](auto shape) { check_landing<decltype(shape)>(); });
  }
}

}  // namespace
