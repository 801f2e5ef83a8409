// Program choice on simulated devices: at and around every threshold.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "cake/errors.h"
#include "cake/plan.h"
#include "plan/rules.h"

namespace {

using cake::Arch;
using cake::Program;

std::string name(const cake::Plan& p) { return cake::program_name(p.program); }

// The SM90 program the plan chooses (the rank does not enter the choice).
Program sm90_program(int64_t M, int64_t N, int64_t K = 4096, int sms = 132) {
  return cake::plan(M, N, K, 128, Arch::SM90, sms).program;
}

// A plan of one program on the whole problem, unsplit, on 132 SMs: its program,
// CTA pairs (1 or 2), tiles and waves.
struct OneRegionPlan {
  int64_t M, N, K;
  Program program;
  int cluster;
  int64_t tiles, waves;
};

void expect_one_region_plan(const OneRegionPlan& c) {
  const cake::Plan p = cake::plan(c.M, c.N, c.K, 128, Arch::SM90, 132);
  SCOPED_TRACE(std::to_string(c.M) + " " + std::to_string(c.N) + " " + std::to_string(c.K));
  EXPECT_EQ(p.program, c.program);
  EXPECT_EQ(p.cluster_m * p.cluster_n, c.cluster);
  EXPECT_EQ(p.split_k, 1);
  EXPECT_EQ(p.tiles, c.tiles);
  EXPECT_EQ(p.waves, c.waves);
  EXPECT_EQ(p.head_m, c.M);
  EXPECT_EQ(p.head_n, c.N);
}

TEST(PlanSm90, SmallMSwapsAB) {
  for (int64_t M : {1, 2, 16, 17, 32, 33, 63, 64}) {
    // Tiles of 16 tokens up to 16, 32 up to 32, then 64; 64 weight rows each.
    const cake::Plan p = cake::plan(M, 4096, 4096, 128, Arch::SM90, 132);
    const int64_t tokens = M <= cake::kHopperSwapTokensMaxM ? 16 : M <= cake::kHopperSwapTokens32MaxM ? 32 : 64;
    EXPECT_EQ(p.program, tokens == 16   ? Program::kHopperSwap64x16
                         : tokens == 32 ? Program::kHopperSwap64x32
                                        : Program::kHopperSwap64x64)
        << M;
    EXPECT_TRUE(p.swap_ab);
    EXPECT_EQ(p.tile_m, tokens);
    EXPECT_EQ(p.tile_n, 64);
    EXPECT_EQ(p.tiles, 64);
    // 64 SMs unsplit stream the weights at the memory's rate: no split-K (64
    // clusters of 2 would be resident) at K = 4096; at long K, from 33 tokens on,
    // two token tiles of 32 in multicast pairs on 128 SMs (TokenTilesInMulticastPairs).
    EXPECT_EQ(p.split_k, 1);
    EXPECT_EQ(p.grid, 64);
    for (int64_t K : {8192, 14336}) {
      const cake::Plan q = cake::plan(M, 4096, K, 128, Arch::SM90, 132);
      EXPECT_EQ(q.split_k, 1) << M << " " << K;
      EXPECT_EQ(q.cluster_m, M > cake::kHopperSwapTokens32MaxM ? 2 : 1) << M << " " << K;
    }
  }
  {
    // Wide weights, 64 tokens, on 64-row tiles at K = 8192: 448 tiles walked by the
    // 66 resident clusters of 2 (7 rounds of 32 K blocks and the hand-over on the
    // busiest SM against 4 of 64 unsplit; at K = 4096 7 x 18.5 > 4 x 32, unsplit).
    const cake::Plan p = cake::plan_sm90_program(Program::kHopperSwap64x64, 64, 28672, 8192, 132, 0, 64);
    EXPECT_EQ(p.tile_m, 64);
    EXPECT_EQ(p.tile_n, 64);
    EXPECT_EQ(p.tiles, 448);
    EXPECT_EQ(p.split_k, 2);
    EXPECT_EQ(p.workers, 66);
    EXPECT_EQ(p.waves, 7);
    EXPECT_EQ(p.grid, 132);
    EXPECT_EQ(cake::plan_sm90_program(Program::kHopperSwap64x64, 64, 28672, 4096, 132, 0, 64).split_k, 1);
    // The plan's own choice: 512 narrow tiles of 56 rows, 4 whole waves unsplit.
    const cake::Plan q = cake::plan(64, 28672, 8192, 128, Arch::SM90, 132);
    EXPECT_EQ(q.program, Program::kHopperSwap64x64);
    EXPECT_EQ(q.tile_n, 56);
    EXPECT_EQ(q.tiles, 512);
    EXPECT_EQ(q.split_k, 1);
    EXPECT_EQ(q.waves, 4);
  }

  for (int64_t M : {193, 256, 1024}) {
    // (K = 8192: at K = 4096 the split 128 x 128 plans of 193 and 256 give way to
    // the unsplit swap program, SmallTilesWhenFewTilesPastDecode.)
    const cake::Plan p = cake::plan(M, 4096, 8192, 128, Arch::SM90, 132);
    EXPECT_EQ(p.program, Program::kHopper128x128) << M;
    EXPECT_FALSE(p.swap_ab);
    EXPECT_EQ(p.tile_m, 128);
    EXPECT_EQ(p.tile_n, 128);
  }
  // From M = 4096 always; M = 4095 is 704 tiles along M (6 waves) against 1024 of
  // 128 x 128 (8 waves): 112.5% of the work, under the threshold at K = 4096.
  for (int64_t M : {4095, 4096, 8192}) {
    const cake::Plan p = cake::plan(M, 4096, 4096, 128, Arch::SM90, 132);
    EXPECT_EQ(p.program, Program::kHopper192x128) << M;
    EXPECT_EQ(p.tile_m, 192);
    EXPECT_EQ(p.tile_n, 128);
    EXPECT_EQ(p.tiles_m, (p.head_m + 191) / 192);  // the head of two row regions at M = 4096
  }
}

TEST(PlanSm90, PersistentGridIsMinOfTilesAndSms) {
  cake::Plan p = cake::plan(2048, 8192, 1024, 64, Arch::SM90, 132);
  EXPECT_EQ(p.tiles, 16 * 64);
  EXPECT_EQ(p.grid, 132);
  EXPECT_EQ(p.workers, 132);
  EXPECT_EQ(p.waves, (1024 + 131) / 132);
  EXPECT_STREQ(p.scheduler, "static_persistent");
  EXPECT_STREQ(p.raster, "grouped");
  p = cake::plan(300, 8, 16, 32, Arch::SM90, 132);  // K = 16: one K block, no split
  EXPECT_EQ(p.program, Program::kHopperSwap64x64);    // few tiles: 64 x 64 ones
  EXPECT_EQ(p.tiles, 5);
  EXPECT_EQ(p.grid, 5);
  p = cake::plan(4096, 4104, 16, 32, Arch::SM90, 114);  // an H100 PCIe
  EXPECT_EQ(p.tiles, 22 * 33);
  EXPECT_EQ(p.grid, 114);
}

TEST(PlanSm90, SplitKWhenFewTiles) {
  // 132 SMs: 66 clusters of 2, 30 of 4 and 15 of 8 are resident at once.
  // M <= 64 is the 64-row swap program: N / 64 tiles of one token tile.
  auto split = [](int64_t M, int64_t N, int64_t K, int sms = 132) {
    return cake::plan(M, N, K, 128, Arch::SM90, sms).split_k;
  };
  EXPECT_EQ(split(1, 8 * 64, 4096), 8);  // 8 tiles
  EXPECT_EQ(split(1, 15 * 64, 4096), 8);
  EXPECT_EQ(split(1, 16 * 64, 4096), 4);
  EXPECT_EQ(split(1, 30 * 64, 4096), 4);
  EXPECT_EQ(split(1, 31 * 64, 4096), 2);
  // 64 tiles and more: unsplit they stream at the memory's rate (decode_loop_ns).
  EXPECT_EQ(split(1, 4096, 4096), 1);
  EXPECT_EQ(split(1, 66 * 64, 4096), 1);
  EXPECT_EQ(split(1, 48 * 64, 4096), 2);  // 48 SMs alone do not
  EXPECT_EQ(split(64, 48 * 64, 4096), 2);
  EXPECT_EQ(split(1, 67 * 64, 4096), 1);
  EXPECT_EQ(split(300, 4096, 4096), 1);  // 128 x 128 tiles: 3 x 32 = 96 > 66
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopper128x128, 200, 2048, 4096, 132).split_k, 2);  // 32 tiles
  EXPECT_EQ(split(512, 4096, 4096), 1);  // 128 tiles
  // Never more ranks than 128-deep K blocks (8 tiles past decode: the largest
  // resident split).
  auto split8 = [](int64_t K) {
    return cake::plan_sm90_program(Program::kHopperSwap64x64, 100, 256, K, 132).split_k;
  };
  EXPECT_EQ(split8(128), 1);
  EXPECT_EQ(split8(256), 2);
  EXPECT_EQ(split8(512), 4);
  EXPECT_EQ(split8(896), 4);
  EXPECT_EQ(split8(1024), 8);
  // Other SM counts: clusters of 2, half the SMs.
  EXPECT_EQ(split(1, 48 * 64, 4096, 114), 2);
  EXPECT_EQ(split(1, 57 * 64, 4096, 114), 1);
  EXPECT_EQ(split(1, 58 * 64, 4096, 114), 1);
  EXPECT_EQ(split(1, 512, 4096, 16), 2);
  EXPECT_EQ(split(1, 576, 4096, 16), 1);
  // No more than a program's landing stages fit in its ring: 4 for the 128 x 64
  // swap program (8 tiles would take 8), 2 for 128 x 128.
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopperSwap128x64, 1, 1024, 4096, 132).split_k, 4);
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopper128x128, 128, 512, 4096, 132).split_k, 2);
  EXPECT_THROW(cake::plan_sm90_program(Program::kHopper128x128, 128, 512, 4096, 132, 4), cake::InvalidArgument);
  EXPECT_THROW(cake::plan_sm90_program(Program::kHopperSwap64x128, 128, 512, 4096, 132, 8), cake::InvalidArgument);
  const cake::Plan p = cake::plan(1, 2048, 4096, 128, Arch::SM90, 132);  // 32 tiles of 64 rows
  EXPECT_EQ(p.grid, 64);
  EXPECT_EQ(p.waves, 1);
  // The 128-row program on 67 tiles: one per SM, 67 SMs streaming.
  const cake::Plan q = cake::plan_sm90_program(Program::kHopperSwap128x64, 1, 67 * 128, 4096, 132);
  EXPECT_EQ(q.grid, 67);
  EXPECT_EQ(cake::plan(1, 8192, 4096, 128, Arch::SM90, 132).split_k, 1);  // 128 tiles of 64 rows
  EXPECT_EQ(cake::plan(1, 2048, 4096, 128, Arch::SM90, 132).split_k, 2);  // 32 tiles of 64 rows
  EXPECT_EQ(cake::plan(1, 1024, 4096, 128, Arch::SM90, 132).split_k, 4);  // 16 tiles of 64 rows
}

TEST(PlanSm90, SplitKClustersWalkTilesWhenThatEvensOutWaves) {
  // 32 K blocks; 66 clusters of 2: split when ceil(tiles / 66) * (16 + 2.5) is
  // less than ceil(tiles / 132) * 32 (kHopperDecodeSplitHandoverHalfBlocks).
  auto plan = [](int64_t tiles, int64_t K = 4096) {
    return cake::plan_sm90_program(Program::kHopperSwap64x64, 1, tiles * 64, K, 132, 0, 64);
  };
  EXPECT_EQ(plan(66).split_k, 1);   // one round would be resident, but 66 SMs stream at the memory's rate
  EXPECT_EQ(plan(48).split_k, 2);
  EXPECT_EQ(plan(67).split_k, 1);   // 2 x 18.5 > 1 x 32
  EXPECT_EQ(plan(132).split_k, 1);
  EXPECT_EQ(plan(133).split_k, 2);  // 3 x 18.5 < 2 x 32
  EXPECT_EQ(plan(133).grid, 132);
  EXPECT_EQ(plan(133).waves, 3);
  EXPECT_EQ(plan(198).split_k, 2);
  EXPECT_EQ(plan(199).split_k, 1);  // 4 x 18.5 > 2 x 32
  EXPECT_EQ(plan(264).split_k, 1);  // two whole waves
  EXPECT_EQ(plan(265).split_k, 2);  // 5 x 18.5 < 3 x 32
  EXPECT_EQ(plan(331).split_k, 1);  // 6 x 18.5 > 3 x 32
  EXPECT_EQ(plan(448).split_k, 1);  // 7 x 18.5 > 4 x 32
  EXPECT_EQ(plan(448, 8192).split_k, 2);  // 7 x 34.5 < 4 x 64
  EXPECT_EQ(plan(133, 128).split_k, 1);  // one K block: nothing to split
  // A forced split is persistent too: the resident clusters walk the tiles.
  const cake::Plan forced = cake::plan_sm90_program(Program::kHopper128x128, 2048, 4096, 4096, 132, 2);
  EXPECT_EQ(forced.split_k, 2);
  EXPECT_EQ(forced.grid, 132);
  EXPECT_EQ(forced.waves, (512 + 65) / 66);
}

TEST(PlanSm90, DecodeSplitsKOnlyWhereThatOutrunsTheHandOver) {
  // The hand-over of a split tile counts 2.5 K blocks (rules.h
  // kHopperDecodeSplitHandoverHalfBlocks): the plans the H200 measured faster.
  struct Case {
    int64_t M, N, K;
    int split;
    int64_t grid;
    int num_sms = 132;
  };
  for (const Case c : {
           Case{64, 18432, 4096, 1, 132},  // 384 tiles of 48 rows, unsplit: 0.91 of 330 of 56 split
           Case{48, 12288, 5120, 1, 132},
           Case{16, 20480, 4096, 1, 132},
           Case{64, 28672, 8192, 1, 132},  // 512 tiles of 56 rows
           Case{32, 3584, 1024, 1, 56},    // 56 tiles of 64 rows on 56 SMs: 0.85 of 64 of 56 split on 128
           Case{64, 10240, 16384, 2, 132}, // long K: the split still pays
           Case{64, 20480, 14336, 2, 132},
           Case{56, 8192, 2048, 1, 114, 114},  // 205 tiles of 40 rows: 0.84 of 171 of 48 split
           // On few SMs (kHopperFewSms) one block, as before: narrower tiles
           // unsplit measured 1.12-1.14 there.
           Case{40, 7168, 7168, 2, 78, 78},
           Case{40, 6144, 7168, 2, 78, 78},
       }) {
    const cake::Plan p = cake::plan(c.M, c.N, c.K, 128, Arch::SM90, c.num_sms);
    EXPECT_EQ(p.split_k, c.split) << c.M << " " << c.N << " " << c.K << " on " << c.num_sms;
    EXPECT_EQ(p.grid, c.grid) << c.M << " " << c.N << " " << c.K << " on " << c.num_sms;
  }
}

TEST(PlanSm90, NarrowWeightTilesWhereSixtyFourRowsLeaveSmsIdle) {
  struct Case {
    int64_t M, N, K;
    int rows;
    int64_t tiles;
    int split;
  };
  // What the busiest SM streams (K blocks x (weight rows + half the token rows),
  // 1.6x past 66 CTAs), against 64-row tiles.
  for (const Case c : {
           Case{1, 6144, 4096, 48, 128, 1},  // 96 tiles of 64 rows leave 36 SMs idle
           Case{16, 6144, 4096, 48, 128, 1},
           Case{64, 6144, 4096, 48, 128, 1},
           Case{3, 6152, 272, 48, 129, 1},     // a tail of 8 rows
           Case{1, 28672, 4096, 56, 512, 1},   // 4 whole waves instead of 7 rounds of split-K pairs
           Case{64, 28672, 4096, 56, 512, 1},
           Case{1, 4288, 4096, 40, 108, 1},    // 67 tiles of 64
           Case{1, 4096, 4096, 64, 64, 1},     // 64 SMs stream at the memory's rate
           Case{1, 2560, 4096, 40, 64, 2},     // narrow tiles keep the largest split
           Case{1, 3072, 2048, 48, 64, 2},
           Case{64, 4096, 4096, 64, 64, 1},
           Case{1, 2048, 4096, 64, 32, 2},     // 64 SMs, a TPC each, against 104 sharing
           Case{1, 1024, 4096, 64, 16, 4},
           Case{1, 8192, 8192, 64, 128, 1},
           Case{64, 4096, 14336, 64, 128, 1},  // two token tiles of 32 in pairs
           Case{1, 40, 4096, 64, 1, 8},  // one tile, whatever its rows
       }) {
    const cake::Plan p = cake::plan(c.M, c.N, c.K, 128, Arch::SM90, 132);
    EXPECT_TRUE(p.swap_ab);
    EXPECT_EQ(p.tile_n, c.rows) << c.M << " " << c.N;
    EXPECT_EQ(p.tiles, c.tiles) << c.M << " " << c.N;
    EXPECT_EQ(p.split_k, c.split) << c.M << " " << c.N;
  }
  // The 64 x 128 swap program (two warpgroups of 64 tokens) takes them too: M = 128,
  // N = 6144, K = 2048 is 128 tiles of 48 rows instead of 96 of 64 (from K = 4096
  // weight-tile pairs take it: WeightTilePairsAtTwoTokenTiles); at N = 4096,
  // K = 8192 its 64 tiles of 64 rows split K in pairs on 128 SMs already.
  EXPECT_EQ(cake::plan(128, 6144, 2048, 128, Arch::SM90, 132).program, Program::kHopperSwap64x128);
  EXPECT_EQ(cake::plan(128, 6144, 2048, 128, Arch::SM90, 132).tile_n, 48);
  EXPECT_EQ(cake::plan(128, 6144, 2048, 128, Arch::SM90, 132).tiles, 128);
  EXPECT_EQ(cake::plan(128, 4096, 8192, 128, Arch::SM90, 132).program, Program::kHopperSwap64x128);
  EXPECT_EQ(cake::plan(128, 4096, 8192, 128, Arch::SM90, 132).tile_n, 64);
  EXPECT_EQ(cake::plan(128, 4096, 8192, 128, Arch::SM90, 132).split_k, 2);
  // Forced rows: a multiple of 8 up to the block, narrower only on the programs
  // that allow it.
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopperSwap64x16, 1, 6144, 4096, 132, 0, 64).tiles, 96);
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopperSwap64x64, 1, 6144, 4096, 132, 2, 40).tiles, 154);
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopperSwap64x64, 1, 6144, 4096, 132, 2, 40).split_k, 2);
  for (int rows : {-8, 4, 44, 72, 128})
    EXPECT_THROW(cake::plan_sm90_program(Program::kHopperSwap64x16, 1, 6144, 4096, 132, 0, rows),
                 cake::InvalidArgument)
        << rows;
  EXPECT_THROW(cake::plan_sm90_program(Program::kHopperSwap128x64, 1, 6144, 4096, 132, 0, 48), cake::InvalidArgument);
  EXPECT_THROW(cake::plan_sm90_program(Program::kHopperSwap192x128, 1, 6144, 4096, 132, 0, 128), cake::InvalidArgument);
  EXPECT_THROW(cake::plan_sm90_program(Program::kHopper128x128, 256, 6144, 4096, 132, 0, 64), cake::InvalidArgument);
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopper128x128, 256, 6144, 4096, 132, 0, 128).tile_m, 128);
}

TEST(PlanSm90, SwapProgramUpTo192TokensOnNarrowWeights) {
  // 64-row weight tiles: up to 128 tokens on up to kHopperSwapNarrowMaxN weight rows.
  EXPECT_EQ(sm90_program(1, 8), Program::kHopperSwap64x16);
  EXPECT_EQ(sm90_program(cake::kHopperSwapTokensMaxM, 28672), Program::kHopperSwap64x16);
  EXPECT_EQ(sm90_program(cake::kHopperSwapTokensMaxM + 1, 8), Program::kHopperSwap64x32);
  EXPECT_EQ(sm90_program(cake::kHopperSwapTokens32MaxM, 28672), Program::kHopperSwap64x32);
  EXPECT_EQ(sm90_program(cake::kHopperSwapTokens32MaxM + 1, 8), Program::kHopperSwap64x64);
  EXPECT_EQ(sm90_program(64, cake::kHopperSwapNarrowMaxN), Program::kHopperSwap64x64);
  EXPECT_EQ(sm90_program(65, 8), Program::kHopperSwap64x64);  // one tile of 64 x 128: two of 64 x 64 split 8
  EXPECT_EQ(sm90_program(128, 4104, 8192), Program::kHopperSwap64x128);
  EXPECT_EQ(sm90_program(128, 4360), Program::kHopperSwap64x128);
  EXPECT_EQ(sm90_program(cake::kHopperSwapNarrowMaxM, cake::kHopperSwapNarrowMaxN), Program::kHopperSwap64x128);
  // Wider weights: 64-row tiles up to 64 tokens, then 128 x 128.
  EXPECT_EQ(sm90_program(64, cake::kHopperSwapNarrowMaxN + 8), Program::kHopperSwap64x64);
  EXPECT_EQ(sm90_program(64, 28672), Program::kHopperSwap64x64);
  // (65 tokens on N = 28672: 128 x 128 tiles, then weight tiles of 112 in their
  // place, FittedWeightTiles.)
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopper128x128, 65, 28672, 4096, 132).waves, 2);
  EXPECT_EQ(sm90_program(65, 28672), Program::kHopper128x112);
  EXPECT_EQ(sm90_program(128, cake::kHopperSwapNarrowMaxN + 8, 8192), Program::kHopper128x128);
  // 129..192 tokens on N <= 4096 below kHopperSwapWideTokenTilesMinK: 128-row
  // weight tiles of 64 tokens, or 64 tokens x 96 weight rows where those are one
  // wave on more SMs than that plan uses.
  const int64_t short_k = cake::kHopperSwapWideTokenTilesMinK / 2;
  EXPECT_EQ(sm90_program(129, 4096, short_k), Program::kHopper64x96);  // 129 tiles against 96
  EXPECT_EQ(sm90_program(192, 4096, short_k), Program::kHopper64x96);
  EXPECT_EQ(sm90_program(160, 3072, short_k), Program::kHopper64x96);       // 96 against 72
  EXPECT_EQ(sm90_program(160, 2560, short_k), Program::kHopperSwap128x64);  // 81 against 60 x split 2
  EXPECT_EQ(sm90_program(192, 4096, short_k, 114), Program::kHopperSwap128x64);  // 129 tiles on 114 SMs
  {
    const cake::Plan p = cake::plan(192, 4096, short_k, 128, Arch::SM90, 132);
    EXPECT_EQ(p.tile_m, 64);
    EXPECT_EQ(p.tile_n, 96);
    EXPECT_FALSE(p.swap_ab);
    EXPECT_EQ(p.tiles, 3 * 43);
    EXPECT_EQ(p.split_k, 1);
    EXPECT_EQ(p.waves, 1);
  }
  // From it on, 64-row weight tiles on two token tiles: 128 tokens wide, or since
  // version 38 fitted to the tokens (80 up to 160 tokens, 96 up to 192).
  for (int64_t K : {cake::kHopperSwapWideTokenTilesMinK, int64_t{14336}})
    for (auto [M, N] : {std::pair<int64_t, int64_t>{129, 4096}, {192, 4096}, {160, 3072}, {136, 2048}}) {
      const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, 132);
      const Program fitted = M <= 160 ? Program::kHopperSwap64x80 : Program::kHopperSwap64x96;
      EXPECT_TRUE(p.program == Program::kHopperSwap64x128 || p.program == fitted) << M << " " << N << " " << K;
      EXPECT_TRUE(p.swap_ab) << M << " " << N << " " << K;
      EXPECT_LE(p.tile_n, 64) << M << " " << N << " " << K;
      EXPECT_EQ(p.tiles_m, 2) << M << " " << N << " " << K;
    }
  EXPECT_EQ(sm90_program(192, 4096, 14336), Program::kHopperSwap64x96);
  // ... but not on 40-row weight tiles.
  EXPECT_EQ(sm90_program(160, 2560), Program::kHopperSwap128x64);
  EXPECT_EQ(sm90_program(193, 4096, 8192), Program::kHopper128x128);
  // 66 tiles of 128 x 128 (with split 2), or since version 38 of 128 weight rows x 96
  // tokens in 33 pairs: 3/4 of the work.
  EXPECT_EQ(sm90_program(192, 4104, 8192), Program::kHopperSwap128x96);
}

TEST(PlanSm90, SmallTilesWhenFewTilesPastDecode) {
  // 16 tiles of 128 x 128 with split 2 (16 K blocks on 32 SMs) against 64 tiles
  // of 64 x 64 with split 2: a quarter of the busiest SM's work.
  EXPECT_EQ(sm90_program(256, 1024), Program::kHopperSwap64x64);
  EXPECT_EQ(sm90_program(256, 1024, 14336), Program::kHopperSwap64x64);
  EXPECT_EQ(sm90_program(512, 1024), Program::kHopperSwap64x64);  // half
  // Equal work: the shape rule stays, unless it splits K up to kHopperUnsplitSwapMaxK:
  // then the swap program with the longer operand on its 64-row side, unsplit in
  // one wave.
  EXPECT_EQ(sm90_program(512, 4096), Program::kHopper128x128);  // 128 tiles, unsplit
  for (int64_t K : {int64_t{2048}, cake::kHopperUnsplitSwapMaxK}) {
    for (auto [M, N] : {std::pair<int64_t, int64_t>{256, 4096}, {193, 4096}, {512, 2048}})
      EXPECT_EQ(sm90_program(M, N, K), Program::kHopperSwap64x128) << M << " " << N << " " << K;
    // 160 tokens: two token tiles of 80 since version 38 (5/8 of the work).
    EXPECT_EQ(sm90_program(160, 4224, K), Program::kHopperSwap64x80) << K;
    for (auto [M, N] : {std::pair<int64_t, int64_t>{1024, 1024}, {2048, 512}})
      EXPECT_EQ(sm90_program(M, N, K), Program::kHopperSwap128x64) << M << " " << N << " " << K;
  }
  for (auto [M, N] : {std::pair<int64_t, int64_t>{256, 4096}, {1024, 1024}, {2048, 512}})
    EXPECT_EQ(sm90_program(M, N, cake::kHopperUnsplitSwapMaxK + 128), Program::kHopper128x128) << M << " " << N;
  // The GPU suite's shapes on this path: one wave of unsplit tiles.
  for (auto [M, N, program] : {std::tuple{int64_t{200}, int64_t{4104}, Program::kHopperSwap64x128},
                               std::tuple{int64_t{2040}, int64_t{504}, Program::kHopperSwap128x64}}) {
    const cake::Plan p = cake::plan(M, N, 2064, 64, Arch::SM90, 132);
    EXPECT_EQ(p.program, program) << M;
    EXPECT_EQ(p.split_k, 1) << M;
    EXPECT_EQ(p.waves, 1) << M;
  }
  EXPECT_EQ(sm90_program(128, 4096, 8192), Program::kHopperSwap64x128);
  EXPECT_EQ(sm90_program(8192, 8192), Program::kHopper192x128);
}

TEST(PlanSm90, TokenTilesInMulticastPairs) {
  // One wave of pairs: two token tiles per whole 64-row weight tile, unsplit.
  auto expect_pairs = [](int64_t M, int64_t N, int64_t K, Program program) {
    const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, 132);
    SCOPED_TRACE(std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(K));
    EXPECT_EQ(p.program, program);
    EXPECT_EQ(p.tile_n, 64);
    EXPECT_EQ(p.tiles_m, 2);
    EXPECT_EQ(p.split_k, 1);
    EXPECT_EQ(p.cluster_m, 2);
    EXPECT_EQ(p.waves, 1);
    EXPECT_EQ(p.grid, 2 * p.tiles_n);
  };
  // 96..128 tokens, K past kHopperTokenTilePairsMinK (from it on two whole token
  // tiles) up to kHopperTokenTilePairsMaxK: the two token tiles of each whole 64-row
  // weight tile are a CTA pair sharing it, in one wave of pairs on at least 93% of
  // the SMs (62 of the 66 resident at N = 3968, 64 at N = 4096, 65 at N = 4152
  // whose last weight tile is 56 rows, 66 at N = 4224).
  for (int64_t M : {cake::kHopperTokenTilePairsMinM, int64_t{100}, int64_t{128}})
    for (int64_t K : {cake::kHopperTokenTilePairsMinK, int64_t{4112}, int64_t{5120}, cake::kHopperTokenTilePairsMaxK})
      for (int64_t N : {3968, 4096, 4152, 4224}) {
        if (M != 128 && K == cake::kHopperTokenTilePairsMinK) continue;
        expect_pairs(M, N, K, Program::kHopperSwap64x64);
      }
  // Fewer tokens, shorter or longer K: unpaired token tiles below
  // kHopperTokenTilesMaxK (and at it from 97 tokens), the split program past it; from
  // it, up to 96 tokens, one token tile tight on them (TightTokenTiles).
  for (auto [M, K] : {std::pair<int64_t, int64_t>{95, 3968}, {72, 3968}, {96, 3968}, {127, 4096}, {128, 2048},
                      {128, 4000}}) {
    const cake::Plan p = cake::plan(M, 4096, K, 128, Arch::SM90, 132);
    EXPECT_EQ(p.program, Program::kHopperSwap64x64) << M << " " << K;
    EXPECT_EQ(p.cluster_m, 1) << M << " " << K;
  }
  EXPECT_EQ(sm90_program(128, 4096, cake::kHopperTokenTilePairsMaxK + 128), Program::kHopperSwap64x128);
  for (int64_t K : {int64_t{4096}, int64_t{5120}}) {
    EXPECT_EQ(sm90_program(72, 4096, K), Program::kHopperSwap64x80) << K;
    EXPECT_EQ(sm90_program(95, 4096, K), Program::kHopperSwap64x96) << K;
  }
  // Where the token-tile plan takes narrow weight tiles (N = 3584: 64 tiles of 56
  // rows on 128 SMs instead of 56 of 64) they stay unpaired up to
  // kHopperTokenTilesMaxK, and past it the split program runs.
  EXPECT_EQ(cake::plan(128, 3584, 4096, 128, Arch::SM90, 132).tile_n, 56);
  EXPECT_EQ(cake::plan(128, 3584, 4096, 128, Arch::SM90, 132).cluster_m, 1);
  EXPECT_EQ(sm90_program(128, 3584, 5120), Program::kHopperSwap64x128);
  EXPECT_EQ(sm90_program(128, 3840, 5120), Program::kHopperSwap64x128);  // 120 CTAs: 91%

  // 33..64 tokens from K = kHopperHalfTokenTilePairsMinK: the 32-token program on
  // two token tiles in pairs, where the pairs are one wave on at least
  // kHopperTokenTilePairsMinFillPercent of the SMs (N = 3968: 124 CTAs of 132).
  for (int64_t M : {33, 48, 64})
    for (int64_t K : {cake::kHopperHalfTokenTilePairsMinK, int64_t{8192}, int64_t{16400}})
      for (int64_t N : {3968, 4096, 4224}) expect_pairs(M, N, K, Program::kHopperSwap64x32);
  // Shorter K, fewer SMs (N = 3840: 120 CTAs; N = 3584, 2048), 32 tokens or fewer:
  // as before.
  EXPECT_EQ(sm90_program(48, 4096, 4096), Program::kHopperSwap64x64);
  for (int64_t N : {3840, 3584, 2048}) EXPECT_EQ(sm90_program(48, N, 8192), Program::kHopperSwap64x64) << N;
  EXPECT_EQ(cake::plan(32, 4096, 8192, 128, Arch::SM90, 132).cluster_m, 1);
}

TEST(PlanSm90, TokenTilesOfSixtyFourAtShortK) {
  // 65..128 tokens on N <= kHopperSwapNarrowMaxN: up to K = kHopperTokenTilesMaxK
  // the 64 x 64 swap program on two token tiles, unsplit, where its tiles fill more
  // than half the SMs in one wave; past it (or on fewer or more tiles) the rules
  // before this one.
  for (int64_t M : {65, 72, 96, 128})
    for (int64_t K : {int64_t{256}, int64_t{2048}, cake::kHopperTokenTilesMaxK}) {
      if (M <= 96 && K >= cake::kHopperTightTokenTilesMinK) continue;  // one tight tile (below)
      const cake::Plan p = cake::plan(M, 4096, K, 128, Arch::SM90, 132);
      EXPECT_EQ(p.program, Program::kHopperSwap64x64) << M << " " << K;
      EXPECT_EQ(p.tiles_m, 2) << M << " " << K;
      EXPECT_EQ(p.split_k, 1) << M << " " << K;
      EXPECT_EQ(p.waves, 1) << M << " " << K;
    }
  // From kHopperTightTokenTilesMinK up to 96 tokens, and past kHopperTokenTilesMaxK,
  // one token tile tight on them split in two (TightTokenTiles; from
  // kHopperTokenTilePairsMinM tokens the tiles in multicast pairs where those fill
  // the SMs: TokenTilesInMulticastPairs).
  for (int64_t K : {cake::kHopperTokenTilesMaxK, cake::kHopperTokenTilesMaxK + 128}) {
    for (int64_t M : {65, 72}) EXPECT_EQ(sm90_program(M, 4096, K), Program::kHopperSwap64x80) << M << " " << K;
    EXPECT_EQ(sm90_program(95, 4096, K), Program::kHopperSwap64x96) << K;
  }
  // 132 tiles of 64 x 64 (N = 4224), 128 of 48 rows (N = 3072; 96 of 64 would be),
  // 128 of 40 rows (N = 2560; 80 of 64 would be): more than half the SMs.
  for (int64_t N : {4224, 3072, 2560}) {
    EXPECT_EQ(sm90_program(128, N), Program::kHopperSwap64x64) << N;
    EXPECT_EQ(cake::plan(128, N, 4096, 128, Arch::SM90, 132).split_k, 1) << N;
  }
  EXPECT_EQ(cake::plan(128, 3072, 4096, 128, Arch::SM90, 132).tile_n, 48);
  // 136 tiles of 64 rows: a second wave; the 64 x 128 program on 40-row tiles.
  EXPECT_EQ(sm90_program(128, 4352), Program::kHopperSwap64x128);
  // N = 2048: 64 tiles, half the SMs: the 64 x 64 program splits K in pairs (the
  // few-tiles rule), as before.
  EXPECT_EQ(cake::plan(128, 2048, 4096, 128, Arch::SM90, 132).program, Program::kHopperSwap64x64);
  EXPECT_EQ(cake::plan(128, 2048, 4096, 128, Arch::SM90, 132).split_k, 2);
  // Other SM counts: the same rule on their SMs (H100 PCIe, 114: 128 tiles fit;
  // at K = 2048, below the weight-tile pairs, which take N = 4096 there from 4096).
  EXPECT_EQ(sm90_program(128, 4096, 2048, 114), Program::kHopperSwap64x128);
  EXPECT_EQ(sm90_program(128, 3584, 2048, 114), Program::kHopperSwap64x64);
  EXPECT_EQ(sm90_program(128, 4096, 4096, 114), Program::kHopper64x96);
}

// 65..128 tokens from K = kHopperWeightTilePairsMinK: 64 x 96 tiles in CTA pairs
// along M sharing each weight tile, where the pairs are one wave on at least
// kHopperWeightTilePairsMinFillPercent of the SMs (N = 4513..6336 on 132 SMs).
TEST(PlanSm90, WeightTilePairsAtTwoTokenTiles) {
  for (int64_t M : {65, 96, 128})
    for (int64_t N : {4608, 5120, 6144, 6336})
      for (int64_t K : {cake::kHopperWeightTilePairsMinK, int64_t{14336}}) {
        const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, 132);
        SCOPED_TRACE(std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(K));
        EXPECT_EQ(p.program, Program::kHopper64x96);
        EXPECT_EQ(p.cluster_m, 2);
        EXPECT_EQ(p.cluster_n, 1);
        EXPECT_EQ(p.split_k, 1);
        EXPECT_EQ(p.tiles, 2 * ((N + 95) / 96));
        EXPECT_EQ(p.waves, 1);
        EXPECT_EQ(p.grid, p.tiles);
      }
  // Below the K, below the fill (N = 4096: 43 pairs, 65% of the SMs), past one wave
  // of pairs (N = 6400: 67), past two token tiles (M = 160), and in decode: not.
  EXPECT_NE(sm90_program(128, 6144, cake::kHopperWeightTilePairsMinK - 128), Program::kHopper64x96);
  EXPECT_NE(sm90_program(128, 4096), Program::kHopper64x96);
  EXPECT_NE(sm90_program(128, 4512), Program::kHopper64x96);  // 47 pairs: 71%
  EXPECT_EQ(sm90_program(128, 4513), Program::kHopper64x96);  // 48: 73%
  EXPECT_NE(sm90_program(128, 6337), Program::kHopper64x96);  // 67 pairs
  EXPECT_NE(sm90_program(128, 6400), Program::kHopper64x96);
  EXPECT_NE(sm90_program(160, 6144), Program::kHopper64x96);
  EXPECT_NE(sm90_program(64, 6144), Program::kHopper64x96);
  // 64 x 96 where it runs single (129..192 tokens on N <= 4096 at short K) stays
  // single: three token tiles.
  const cake::Plan single = cake::plan(160, 4096, 2048, 128, Arch::SM90, 132);
  EXPECT_EQ(single.program, Program::kHopper64x96);
  EXPECT_EQ(single.cluster_m * single.cluster_n, 1);
}

TEST(PlanSm90, TwoRowRegionsWhereTheLastWaveIsPartlyIdle) {
  auto plan = [](int64_t M, int64_t N, int64_t K) { return cake::plan(M, N, K, 128, Arch::SM90, 132); };
  // M = 3072, N = 2560: 16 x 20 tiles of 192 x 128 are 2.42 waves; rows 0-2495 are
  // two whole waves of them (260 tiles), rows 2496-3071 one wave of 60 such tiles split
  // in two. (M = 2048, N = 4096, cut so until version 78, takes 256 x 128 tiles.)
  for (int64_t K : {8192, 14336}) {
    const cake::Plan head = plan(3072, 2560, K);
    EXPECT_EQ(head.program, Program::kHopper192x128) << K;
    EXPECT_EQ(head.head_m, 2496) << K;
    EXPECT_EQ(head.tiles, 13 * 20) << K;
    EXPECT_EQ(head.waves, 2) << K;
    const cake::Plan tail = plan(3072 - head.head_m, 2560, K);
    EXPECT_EQ(tail.program, Program::kHopper192x128) << K;
    EXPECT_EQ(tail.head_m, 576) << K;
    EXPECT_EQ(tail.split_k, 2) << K;
    EXPECT_EQ(tail.waves, 1) << K;
  }
  // M = 2048, N = K = 8192: 5.33 waves -> 4 whole ones (paired) + 2 of 128 x 128.
  const cake::Plan wide = plan(2048, 8192, 8192);
  EXPECT_EQ(wide.head_m, 1536);
  EXPECT_EQ(wide.waves, 4);
  EXPECT_EQ(wide.cluster_n, 2);
  EXPECT_EQ(plan(512, 8192, 8192).waves, 2);
  // One program: whole waves already (M = 2048, N = 6144: 4), many waves (N = 28672:
  // 19; 8192^3: 21), or not the 192-row program.
  for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{2048, 6144, 4096}, {2048, 28672, 4096},
                         {8192, 8192, 8192}, {8192, 4096, 4096}, {512, 4096, 4096}, {1, 4096, 4096}})
    EXPECT_EQ(plan(M, N, K).head_m, M) << M << " " << N << " " << K;
  // A forced program, and Blackwell, cover every row and column.
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopper192x128, 2048, 4096, 4096, 132).head_m, 2048);
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopper192x128, 2048, 4096, 4096, 132).head_n, 4096);
  EXPECT_EQ(cake::plan(2048, 4096, 4096, 128, Arch::SM100, 148).head_m, 2048);
  EXPECT_EQ(cake::plan(2048, 4096, 4096, 128, Arch::SM100, 148).head_n, 4096);
  // Row regions cover every column.
  EXPECT_EQ(plan(3072, 2560, 8192).head_n, 2560);
}

// What the launcher assumes of every plan of regions: rows or columns, never
// both, and a column head that keeps b, lora_b, bias and out 16-byte aligned
// (a multiple of 8 columns).
TEST(PlanSm90, RegionsSplitRowsOrColumnsOnAlignedColumns) {
  int rows = 0, columns = 0;
  for (int64_t M : {96, 128, 200, 256, 300, 448, 512, 640, 1024, 1536, 2048, 3000})
    for (int64_t N : {1024, 4096, 6144, 14336, 28672, 53248, 65536})
      for (int64_t K : {1024, 4096, 14336}) {
        const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, 132);
        EXPECT_TRUE(p.head_m == M || p.head_n == N) << M << " " << N << " " << K;
        EXPECT_TRUE(p.head_m > 0 && p.head_m <= M && p.head_n > 0 && p.head_n <= N);
        // Either three-consumer program, cut along either operand.
        const bool three = p.program == Program::kHopper192x128 || p.program == Program::kHopperSwap192x128;
        if (p.head_n < N) {
          ++columns;
          EXPECT_TRUE(three) << M << " " << N << " " << K;
          EXPECT_EQ(p.head_n % 8, 0) << M << " " << N << " " << K;
        }
        if (p.head_m < M) {
          ++rows;
          EXPECT_TRUE(three) << M << " " << N << " " << K;
        }
      }
  // The sweep reaches both kinds.
  EXPECT_GT(rows, 0);
  EXPECT_GT(columns, 0);
}

// Two regions cut along Q (whole Q blocks of the clusters) where whole P tiles
// leave no whole wave, from kHopperRegionAcrossMinK on and only where no fitted
// weight tile takes the plan; a split-K rest weighs (s + 1) / 2s of its tiles.
TEST(PlanSm90, TwoRegionsCutAlongEitherOperand) {
  auto plan = [](int64_t M, int64_t N, int64_t K, int sms = 132) { return cake::plan(M, N, K, 128, Arch::SM90, sms); };
  // M = 3072, N = 3584: 16 x 28 tiles of 192 x 128 in pairs (3.39 waves); columns
  // 0-3071 are 384 of them, three waves, and columns 3072-3583 one wave: 120 tiles of
  // 128 x 112 at K = 4096, 64 of 192 x 128 split in two at K = 8192. (M = 2560,
  // N = 3072 was cut so until version 78, whose 256 x 128 tiles take it; M = 2048,
  // N = 2560 until version 60, whose 192 x 112 tiles take it.)
  cake::Plan p = plan(3072, 3584, 8192);
  EXPECT_EQ(p.program, Program::kHopper192x128);
  EXPECT_EQ(p.head_m, 3072);
  EXPECT_EQ(p.head_n, 3072);
  EXPECT_EQ(p.waves, 3);
  const cake::Plan columns = plan(3072, 3584 - 3072, 8192);
  EXPECT_EQ(columns.program, Program::kHopper192x128);
  EXPECT_EQ(columns.split_k, 2);
  EXPECT_EQ(plan(3072, 3584 - 3072, 4096).program, Program::kHopper128x112);
  EXPECT_EQ(plan(2048, 1024, 8192).program, Program::kHopper128x128);
  // Not below kHopperRegionAcrossMinK (there the second launch's fixed cost lost).
  EXPECT_EQ(plan(3072, 3584, cake::kHopperRegionAcrossMinK).head_n, 3072);
  p = plan(3072, 3584, cake::kHopperRegionAcrossMinK - 128);
  EXPECT_EQ(p.head_m, 3072);
  EXPECT_EQ(p.head_n, 3584);
  // In pairs: M = 768, N = 14336 is 4 x 112 tiles, 224 pairs along N (3.39 waves
  // of 66); columns 0-12543 are three waves of them, the rest 56 tiles split in two.
  p = plan(768, 14336, 8192);
  EXPECT_EQ(p.program, Program::kHopper192x128);
  EXPECT_EQ(p.head_n, 12544);
  EXPECT_EQ(p.cluster_n, 2);
  EXPECT_EQ(p.waves, 3);
  // (on 192 x 112 tiles since version 60: 64 of them in pairs where 56 of 192 x 128)
  const cake::Plan rest = plan(768, 14336 - 12544, 8192);
  EXPECT_EQ(rest.program, Program::kHopper192x112);
  EXPECT_EQ(rest.split_k, 2);
  EXPECT_EQ(rest.tiles, 64);
  // The turned program cut along its tokens (rows): M = 584, N = 2848 on 16 SMs,
  // rows 0-255 two waves of 30 turned tiles. (K = 8272: at K = 4160 128 x 160 tiles
  // on many waves take it since version 68, kHopperFittedWeightTiles160*.)
  p = plan(584, 2848, 8272, 16);
  EXPECT_EQ(p.program, Program::kHopperSwap192x128);
  EXPECT_EQ(p.head_m, 256);
  EXPECT_EQ(p.head_n, 2848);
  // Where fitted weight tiles take the plan they stay (M = 2048, N = 3584, K = 18944:
  // 128 x 112, FittedWeightTiles), and the grid's row regions stay rows.
  EXPECT_EQ(plan(2048, 3584, 18944).program, Program::kHopper128x112);
  EXPECT_EQ(plan(2048, 8192, 4096).head_m, 1536);
  EXPECT_EQ(plan(2048, 8192, 8192).head_m, 1536);
}

TEST(PlanSm90, TwoColumnRegionsForTheTurnedProgram) {
  auto plan = [](int64_t M, int64_t N, int64_t K) { return cake::plan(M, N, K, 128, Arch::SM90, 132); };
  // M = 512, N = 28672: 600 turned tiles of 128 tokens x 192 weight rows, in pairs
  // along M, are 4.55 waves; columns 0-25343 are four whole waves of them, columns
  // 25344-28671 one wave of 120 tiles of 128 x 112 (weight tiles fitted to the
  // weights, 7/8 of the work of 104 tiles of 128 x 128).
  const cake::Plan head = plan(512, 28672, 4096);
  EXPECT_EQ(head.program, Program::kHopperSwap192x128);
  EXPECT_EQ(head.head_m, 512);
  EXPECT_EQ(head.head_n, 25344);
  EXPECT_EQ(head.tiles, 4 * 132);
  EXPECT_EQ(head.waves, 4);
  EXPECT_EQ(head.cluster_m, 2);
  const cake::Plan rest = plan(512, 28672 - head.head_n, 4096);
  EXPECT_EQ(rest.program, Program::kHopper128x112);
  EXPECT_EQ(rest.head_n, 28672 - head.head_n);
  EXPECT_EQ(rest.tiles, 4 * 30);
  EXPECT_EQ(rest.waves, 1);
  // One wave already (M = 512, N = 6144: 128 tiles): one program.
  const cake::Plan whole = plan(512, 6144, 4096);
  EXPECT_EQ(whole.program, Program::kHopperSwap192x128);
  EXPECT_EQ(whole.head_n, 6144);
  EXPECT_EQ(whole.head_m, 512);
}

TEST(PlanSm90, TurnedWideTileWhenItSavesWaves) {
  // M = 512, N = 6144: 192 tiles of 128 x 128 are 2 waves (32768 output elements on
  // the busiest SM); 128 tiles of 192 x 128 are one (24576).
  // (192 x 128 along M: 144 tiles, two waves.)
  EXPECT_EQ(sm90_program(512, 6144), Program::kHopperSwap192x128);
  EXPECT_EQ(sm90_program(500, 6152), Program::kHopperSwap192x128);  // 196 tiles; 147 along M, 132 turned
  // Along M when that is no more work: M = 300, N = 6152 is 98 tiles of 192 x 128
  // and 99 turned (one wave each) against 147 of 128 x 128; in its place then 129
  // weight tiles of 144 (3/4 of the work, FittedWeightTiles).
  EXPECT_EQ(sm90_program(300, 6152), Program::kHopper128x144);
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopper192x128, 300, 6152, 4096, 132).tiles, 98);
  // More work on the busiest SM: the two-set 128 x 128 program.
  EXPECT_EQ(sm90_program(512, 4096), Program::kHopper128x128);   // one wave either way
  EXPECT_EQ(sm90_program(512, 8192), Program::kHopper128x128);   // two waves either way
  EXPECT_EQ(sm90_program(2048, 4096, 1024), Program::kHopper128x128);  // 4 waves against 3 (112.5%)
  EXPECT_EQ(sm90_program(512, 6144, 4096, 192), Program::kHopper128x128);  // 192 SMs: one wave of 128 x 128
  // At the threshold with promotion every 64 K (kHopperWideTileMaxWorkPercent = 105):
  // M = 2048, N = 28672 is 3584 tiles (28 waves, 458752 elements) against 2464 along
  // M and 2400 turned (19 waves, 466944: 101.8%); M = 512 is 896 tiles (7 waves,
  // 114688) against 600 turned (5 waves, 122880: 107%).
  EXPECT_EQ(sm90_program(2048, 28672, 1024), Program::kHopper192x128);
  EXPECT_EQ(sm90_program(512, 28672, 1024), Program::kHopper128x128);
  // Every 128 K (K >= kHopperLongPromotionMinK) the threshold is
  // kHopperWideTileMaxWorkPercentLongPromotion = 115: 112.5% and 107% take the
  // 192-row tiles, 150% does not. (At M = 2048, N = 4096 in two regions, whose place
  // 256 x 128 tiles take: kHopper256RowTiles*.)
  EXPECT_EQ(sm90_program(2048, 4096, cake::kHopperLongPromotionMinK), Program::kHopper256x128);
  EXPECT_EQ(sm90_program(2048, 4096, cake::kHopperLongPromotionMinK - 16), Program::kHopper128x128);
  EXPECT_EQ(sm90_program(2048, 8192, 8192), Program::kHopper192x128);
  EXPECT_EQ(sm90_program(512, 28672, 4096), Program::kHopperSwap192x128);
  EXPECT_EQ(sm90_program(512, 4096, 4096), Program::kHopper128x128);
  // From kHopperWideTileMinM the 192 x 128 program, whatever the waves.
  EXPECT_EQ(sm90_program(cake::kHopperWideTileMinM, 6144), Program::kHopper192x128);
}

TEST(PlanSm90, MulticastPairsOnManyWavesOfLargeTiles) {
  // From kHopperMulticastMinWaves waves of tiles of at least 128 x 128: CTA pairs
  // along Q (N without swap, M with it), counted in pairs of tiles over the 66
  // resident pairs.
  // 352 tiles of 192 x 128 (as one program; the plan runs them as two row regions)
  cake::Plan p = cake::plan_sm90_program(Program::kHopper192x128, 2048, 4096, 4096, 132);
  EXPECT_EQ(p.program, Program::kHopper192x128);
  EXPECT_EQ(p.cluster_m, 1);
  EXPECT_EQ(p.cluster_n, 2);
  EXPECT_EQ(p.grid, 132);
  EXPECT_EQ(p.waves, 3);  // 11 x 16 pairs
  p = cake::plan(512, 28672, 4096, 128, Arch::SM90, 132);  // turned: pairs along M
  EXPECT_EQ(p.program, Program::kHopperSwap192x128);
  EXPECT_EQ(p.cluster_m, 2);
  EXPECT_EQ(p.cluster_n, 1);
  // One or two waves, small tiles, split-K: no pairs (the 64 x 64 swap program's
  // token tiles aside: TokenTilesInMulticastPairs).
  for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{512, 4096, 4096}, {512, 8192, 8192}, {1, 4096, 4096},
                         {128, 4096, 2048}, {128, 6144, 2048}, {1024, 1024, 4096}}) {
    p = cake::plan(M, N, K, 128, Arch::SM90, 132);
    EXPECT_EQ(p.cluster_m * p.cluster_n, 1) << M << " " << N << " " << K;
  }
  // On two waves: 128 x 128 and 128 x 112 from kHopperMulticastTwoWavesMinK and
  // kHopperMulticastTwoWavesMinTokenTiles token tiles on, where the pairs take two
  // waves too; not the one-set programs (192 x 128, 128 x 144).
  p = cake::plan(1536, 2560, cake::kHopperMulticastTwoWavesMinK, 128, Arch::SM90, 132);
  EXPECT_EQ(p.program, Program::kHopper128x128);  // 12 x 20 tiles, 120 pairs
  EXPECT_EQ(p.cluster_n, 2);
  EXPECT_EQ(p.waves, 2);
  p = cake::plan(1024, 3584, 18944, 128, Arch::SM90, 132);
  EXPECT_EQ(p.program, Program::kHopper128x112);
  EXPECT_EQ(p.cluster_n, 2);
  for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{1536, 2560, cake::kHopperMulticastTwoWavesMinK - 1024},
                         {512, 8192, 8192},      // 4 token tiles
                         {1536, 4096, 14336}}) {  // 192 x 128
    p = cake::plan(M, N, K, 128, Arch::SM90, 132);
    EXPECT_EQ(p.waves, 2) << M << " " << N << " " << K;
    EXPECT_EQ(p.cluster_m * p.cluster_n, 1) << M << " " << N << " " << K;
  }
  // Forced on and off; refused with split-K, on narrow or partial P tiles, on one
  // tile along Q, and for anything but 0..4.
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopper128x128, 512, 4096, 4096, 132, 0, 0, 0, 2).cluster_n, 2);
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopper192x128, 8192, 8192, 8192, 132, 0, 0, 0, 1).cluster_n, 1);
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopperSwap64x16, 64, 4096, 4096, 132, 1, 64, 0, 2).cluster_m, 2);
  // 64 x 96 pairs share the weight (Q) tile, lying along M: 3 token tiles x 64
  // weight tiles are 2 x 64 = 128 pairs, two waves of the 66 resident ones.
  p = cake::plan_sm90_program(Program::kHopper64x96, 160, 6144, 4096, 132, 1, 0, 0, 2);
  EXPECT_EQ(p.cluster_m, 2);
  EXPECT_EQ(p.cluster_n, 1);
  EXPECT_EQ(p.waves, 2);
  EXPECT_EQ(p.grid, 132);
  EXPECT_THROW(cake::plan_sm90_program(Program::kHopper64x96, 64, 6144, 4096, 132, 1, 0, 0, 2),
               cake::InvalidArgument);  // one tile along M
  EXPECT_THROW(cake::plan_sm90_program(Program::kHopper64x96, 160, 88, 4096, 132, 1, 0, 0, 2),
               cake::InvalidArgument);  // the weights shorter than their tile
  EXPECT_THROW(cake::plan_sm90_program(Program::kHopper128x128, 512, 4096, 4096, 132, 2, 0, 0, 2),
               cake::InvalidArgument);
  EXPECT_THROW(cake::plan_sm90_program(Program::kHopperSwap64x16, 64, 4096, 4096, 132, 1, 56, 0, 2),
               cake::InvalidArgument);
  EXPECT_THROW(cake::plan_sm90_program(Program::kHopper192x128, 100, 4096, 4096, 132, 1, 0, 0, 2),
               cake::InvalidArgument);
  EXPECT_THROW(cake::plan_sm90_program(Program::kHopper128x128, 512, 128, 4096, 132, 1, 0, 0, 2),
               cake::InvalidArgument);
  EXPECT_THROW(cake::plan_sm90_program(Program::kHopper128x128, 512, 4096, 4096, 132, 0, 0, 0, 5),
               cake::InvalidArgument);
  EXPECT_THROW(cake::plan_sm90_program(Program::kHopper128x128, 512, 4096, 4096, 132, 0, 0, 0, -1),
               cake::InvalidArgument);
  // Forced along M or N: 128 x 112 and 128 x 128 pairs either way (config.h
  // kPairsBothWays; along M they share their tile of b: 64 weight tiles x 2 pairs of
  // token tiles); the other programs only their own way.
  p = cake::plan_sm90_program(Program::kHopper128x112, 512, 7168, 4096, 132, 0, 0, 0, cake::kMulticastAlongM);
  EXPECT_EQ(p.cluster_m, 2);
  EXPECT_EQ(p.cluster_n, 1);
  EXPECT_EQ(p.waves, 2);
  p = cake::plan_sm90_program(Program::kHopper128x112, 512, 7168, 4096, 132, 0, 0, 0, cake::kMulticastAlongN);
  EXPECT_EQ(p.cluster_m, 1);
  EXPECT_EQ(p.cluster_n, 2);
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopper128x128, 512, 4096, 4096, 132, 0, 0, 0, cake::kMulticastAlongN)
                .cluster_n,
            2);
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopper64x96, 160, 6144, 4096, 132, 1, 0, 0, cake::kMulticastAlongM)
                .cluster_m,
            2);
  p = cake::plan_sm90_program(Program::kHopper128x128, 512, 4096, 4096, 132, 0, 0, 0, cake::kMulticastAlongM);
  EXPECT_EQ(p.cluster_m, 2);  // 32 weight tiles x 2 pairs of token tiles: one wave
  EXPECT_EQ(p.cluster_n, 1);
  EXPECT_EQ(p.waves, 1);
  EXPECT_THROW(cake::plan_sm90_program(Program::kHopper192x128, 512, 4096, 4096, 132, 0, 0, 0, cake::kMulticastAlongM),
               cake::InvalidArgument);
  EXPECT_THROW(cake::plan_sm90_program(Program::kHopper64x96, 160, 6144, 4096, 132, 1, 0, 0, cake::kMulticastAlongN),
               cake::InvalidArgument);
  EXPECT_THROW(
      cake::plan_sm90_program(Program::kHopperSwap192x128, 512, 6144, 4096, 132, 0, 0, 0, cake::kMulticastAlongN),
      cake::InvalidArgument);
  EXPECT_THROW(cake::plan_sm90_program(Program::kHopper128x112, 128, 7168, 4096, 132, 0, 0, 0, cake::kMulticastAlongM),
               cake::InvalidArgument);  // one token tile along M
}

// 128 x 112 on two token tiles (129..256 tokens) from kHopperWeight112PairsMinK on,
// on one or two waves: CTA pairs lying along M, sharing the weight tile (version 71).
TEST(PlanSm90, WeightTilePairsOf128x112OnTwoTokenTilesAtLongK) {
  for (const OneRegionPlan& c : {
           // 64 weight tiles: one wave of 64 pairs; 128 / 124: two waves of 128 / 124
           OneRegionPlan{256, 7168, 8192, Program::kHopper128x112, 2, 128, 1},
           OneRegionPlan{256, 14336, 8192, Program::kHopper128x112, 2, 256, 2},
           OneRegionPlan{208, 13824, 18944, Program::kHopper128x112, 2, 248, 2},
       }) {
    expect_one_region_plan(c);
    const cake::Plan p = cake::plan(c.M, c.N, c.K, 128, Arch::SM90, 132);
    EXPECT_EQ(p.cluster_m, 2) << c.M << " " << c.N << " " << c.K;
  }
  // Not below that K, on four token tiles, or on one tile of tokens.
  for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{256, 7168, cake::kHopperWeight112PairsMinK - 1024},
                         {256, 6144, 4096},
                         {512, 7168, 8192},
                         {512, 3328, 4096}}) {
    const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, 132);
    EXPECT_EQ(p.program, Program::kHopper128x112) << M << " " << N << " " << K;
    EXPECT_EQ(p.cluster_m, 1) << M << " " << N << " " << K;
  }
}

// Of the two unsplit swap programs (kHopperUnsplitSwapWeightRowsMinRatio): the tokens
// on the 64-row side where N <= M, or where N < 2M and theirs fills at least as many
// SMs; else the weights, which fill more SMs on narrower weight tiles.
TEST(PlanSm90, UnsplitSwapSide) {
  for (auto [M, N, program] : {std::tuple{int64_t{896}, int64_t{1024}, Program::kHopperSwap128x64},
                               std::tuple{int64_t{768}, int64_t{1280}, Program::kHopperSwap128x64},
                               std::tuple{int64_t{640}, int64_t{1536}, Program::kHopperSwap64x128},
                               std::tuple{int64_t{576}, int64_t{1024}, Program::kHopperSwap64x128},
                               std::tuple{int64_t{1280}, int64_t{512}, Program::kHopperSwap128x64}}) {
    const cake::Plan p = cake::plan(M, N, 4096, 128, Arch::SM90, 132);
    EXPECT_EQ(p.program, program) << M << " " << N;
    EXPECT_EQ(p.split_k, 1) << M << " " << N;
    EXPECT_EQ(p.waves, 1) << M << " " << N;
  }
  // 112 CTAs each way; 72 of 64 x 128 tiles against 130 of 128 x 40.
  EXPECT_EQ(cake::plan(896, 1024, 4096, 128, Arch::SM90, 132).grid, 112);
  EXPECT_EQ(cake::plan(576, 1024, 4096, 128, Arch::SM90, 132).grid, 130);
}

// On slower DRAM the unsplit swap programs take one wave of 128 x 128 tiles split over
// K up to kHopperSlowDramUnsplitSwapMaxK (above kHopperUnsplitSwapMaxK, where the H200
// keeps the split), a second region too; not beyond it.
TEST(PlanSm90, UnsplitSwapFurtherOnSlowDram) {
  constexpr int kSlow = cake::kHopperSlowDramMaxGbps;
  static_assert(cake::kHopperSlowDramUnsplitSwapMaxK > cake::kHopperUnsplitSwapMaxK);
  for (int64_t K : {int64_t{7168}, cake::kHopperSlowDramUnsplitSwapMaxK})
    for (auto [M, N, program] : {std::tuple{int64_t{2048}, int64_t{512}, Program::kHopperSwap128x64},
                                 std::tuple{int64_t{768}, int64_t{1280}, Program::kHopperSwap128x64},
                                 std::tuple{int64_t{256}, int64_t{4096}, Program::kHopperSwap64x128}}) {
      const cake::Plan fast = cake::plan(M, N, K, 128, Arch::SM90, 132, kSlow + 1);
      EXPECT_EQ(fast.program, Program::kHopper128x128) << M << " " << N << " " << K;
      EXPECT_EQ(fast.split_k, 2) << M << " " << N << " " << K;
      const cake::Plan slow = cake::plan(M, N, K, 128, Arch::SM90, 132, kSlow);
      EXPECT_EQ(slow.program, program) << M << " " << N << " " << K;
      EXPECT_EQ(slow.split_k, 1) << M << " " << N << " " << K;
      EXPECT_EQ(slow.waves, 1) << M << " " << N << " " << K;
      EXPECT_EQ(slow.grid, fast.grid) << M << " " << N << " " << K;
    }
  // The second region of M = 8192, N = 512: 1856 rows after the 192 x 128 head.
  const cake::Plan head = cake::plan(8192, 512, 8192, 128, Arch::SM90, 132, kSlow);
  EXPECT_EQ(head.program, Program::kHopper192x128);
  ASSERT_EQ(head.head_m, 6336);
  EXPECT_EQ(cake::plan(8192 - 6336, 512, 8192, 128, Arch::SM90, 132, kSlow).program, Program::kHopperSwap128x64);
  const cake::Plan beyond =
      cake::plan(2048, 512, cake::kHopperSlowDramUnsplitSwapMaxK + 128, 128, Arch::SM90, 132, kSlow);
  EXPECT_EQ(beyond.program, Program::kHopper128x128);
  EXPECT_EQ(beyond.split_k, 2);
}

// On boards with slower DRAM (kHopperSlowDramMaxGbps: an H100 SXM, not an H200), one
// wave of single 128 x 112 or 128 x 128 CTAs over several token tiles and at least as
// many weight tiles from kHopperSlowDramWeightPairsMinK on runs in pairs sharing the
// weight tile: the same tiles, one wave of pairs; the second region of a two-region
// plan too.
TEST(PlanSm90, WeightTilePairsOnSlowDram) {
  constexpr int kSlow = cake::kHopperSlowDramMaxGbps;
  // Unknown; 6144 bits at 3201 MHz (about an H200's 4.8 TB/s); just above the
  // threshold; at it; 5120 bits at 2619 MHz (an H100 SXM's 3.35 TB/s).
  for (auto [dram, slow] : {std::pair{0, false}, {4916, false}, {kSlow + 1, false}, {kSlow, true}, {3352, true}}) {
    SCOPED_TRACE("dram_gbps " + std::to_string(dram));
    const cake::Plan p = cake::plan(512, 3584, 18944, 128, Arch::SM90, 132, dram);
    EXPECT_EQ(p.program, Program::kHopper128x112);
    EXPECT_EQ(p.tiles, 128);  // 4 token tiles x 32 weight tiles
    EXPECT_EQ(p.waves, 1);
    EXPECT_EQ(p.cluster_m, slow ? 2 : 1);
    EXPECT_EQ(p.cluster_n, 1);
    EXPECT_EQ(p.grid, 128);
    // 7 token tiles: pairs of two, the last one single in its pair's slot.
    const cake::Plan q = cake::plan(896, 1792, 16384, 128, Arch::SM90, 132, dram);
    EXPECT_EQ(q.program, Program::kHopper128x112);
    EXPECT_EQ(q.tiles, 112);
    EXPECT_EQ(q.cluster_m, slow ? 2 : 1);
    EXPECT_EQ(q.grid, slow ? 128 : 112);
    // 128 x 128: 4 token tiles x 30 weight tiles.
    const cake::Plan w = cake::plan(512, 3840, 18944, 128, Arch::SM90, 132, dram);
    EXPECT_EQ(w.program, Program::kHopper128x128);
    EXPECT_EQ(w.tiles, 120);
    EXPECT_EQ(w.waves, 1);
    EXPECT_EQ(w.cluster_m, slow ? 2 : 1);
    EXPECT_EQ(w.cluster_n, 1);
    EXPECT_EQ(w.grid, 120);
    // At the threshold: the grid's M = 512, N = 4096, K = 14336, 4 x 32 tiles of 128 x 128.
    const cake::Plan at = cake::plan(512, 4096, cake::kHopperSlowDramWeightPairsMinK, 128, Arch::SM90, 132, dram);
    EXPECT_EQ(at.program, Program::kHopper128x128);
    EXPECT_EQ(at.tiles, 128);
    EXPECT_EQ(at.cluster_m, slow ? 2 : 1);
    EXPECT_EQ(at.grid, 128);
    // The second region of M = 512, N = 28672: 3328 columns of 128 x 112.
    const cake::Plan head = cake::plan(512, 28672, 18944, 128, Arch::SM90, 132, dram);
    EXPECT_EQ(head.program, Program::kHopperSwap192x128);
    EXPECT_EQ(head.head_n, 25344);
    const cake::Plan rest = cake::plan(512, 28672 - head.head_n, 18944, 128, Arch::SM90, 132, dram);
    EXPECT_EQ(rest.program, Program::kHopper128x112);
    EXPECT_EQ(rest.cluster_m, slow ? 2 : 1);
  }
  // Not below that K, not on two waves below their K (kHopperSlowDramTwoWavePairsMinK;
  // M = 512, N = 8192 below kHopperSlowDram256RowTilesMinK too, from which 256 x 128
  // tiles take it), not on one token tile, not on more token tiles than weight tiles
  // (20 x 6 and 14 x 8 of 128 x 128).
  for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{512, 3584, cake::kHopperSlowDramWeightPairsMinK - 2048},
                         {512, 4096, cake::kHopperSlowDramWeightPairsMinK - 2048},
                         {512, 8192, cake::kHopperSlowDram256RowTilesMinK - 2048},
                         {128, 7168, 18944},
                         {2560, 768, 18944},
                         {1792, 1024, 18944}}) {
    const cake::Plan at0 = cake::plan(M, N, K, 128, Arch::SM90, 132);
    const cake::Plan slow = cake::plan(M, N, K, 128, Arch::SM90, 132, kSlow);
    EXPECT_EQ(slow.program, at0.program) << M << " " << N << " " << K;
    EXPECT_EQ(slow.cluster_m, at0.cluster_m) << M << " " << N << " " << K;
    EXPECT_EQ(slow.cluster_n, at0.cluster_n) << M << " " << N << " " << K;
    EXPECT_EQ(slow.grid, at0.grid) << M << " " << N << " " << K;
  }
}

// On slower DRAM, two waves of single CTAs over two or more token tiles from
// kHopperSlowDramTwoWavePairsMinK on run in pairs, still two waves: 192 x 112 /
// 192 x 128 the programs' usual way (along N, sharing the token tile), 128 x 112 /
// 128 x 128 sharing the weight tile (along M).
TEST(PlanSm90, TwoWavePairsOnSlowDram) {
  constexpr int kSlow = cake::kHopperSlowDramMaxGbps;
  constexpr int64_t kMinK = cake::kHopperSlowDramTwoWavePairsMinK;
  using Case = std::tuple<int64_t, int64_t, int64_t, Program>;
  for (const auto& [M, N, K, program] :
       {Case{1536, 3584, 18944, Program::kHopper192x112}, Case{4096, 1536, kMinK, Program::kHopper192x128},
        Case{512, 8192, kMinK, Program::kHopper128x128}, Case{512, 6400, 14336, Program::kHopper128x112}}) {
    const bool along_m = program == Program::kHopper128x128 || program == Program::kHopper128x112;
    for (auto [dram, slow] : {std::pair{0, false}, {4916, false}, {kSlow, true}, {3352, true}}) {
      SCOPED_TRACE(std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(K) + " dram_gbps " +
                   std::to_string(dram));
      const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, 132, dram);
      EXPECT_EQ(p.program, program);
      EXPECT_EQ(p.head_m, M);
      EXPECT_EQ(p.waves, 2);
      EXPECT_EQ(p.cluster_m, slow && along_m ? 2 : 1);
      EXPECT_EQ(p.cluster_n, slow && !along_m ? 2 : 1);
      EXPECT_EQ(p.grid, 132);
    }
  }
  // The head region of a two-region plan pairs as a one-region plan of its tiles and
  // waves does; the rest is planned as a problem of its own. M = 4096, N = 2560,
  // K = 18944 cuts rows: 2496 rows of 192 x 128 on two waves (256 x 128 tiles would take
  // three: kHopper256RowTilesMaxWaves), then 1600 of 128 x 128. On 16 SMs,
  // 948 x 1000 x 12400 cuts columns: 948 x 768 of 192 x 128 on two waves.
  using Head = std::tuple<int64_t, int64_t, int64_t, int, int64_t, int64_t>;
  for (const auto& [M, N, K, sms, head_m, head_n] :
       {Head{4096, 2560, 18944, 132, 2496, 2560}, Head{948, 1000, 12400, 16, 948, 768}}) {
    for (auto [dram, slow] : {std::pair{0, false}, {4916, false}, {kSlow, true}, {3352, true}}) {
      SCOPED_TRACE(std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(K) + " dram_gbps " +
                   std::to_string(dram));
      const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, sms, dram);
      const cake::Plan single = cake::plan(M, N, K, 128, Arch::SM90, sms);
      EXPECT_EQ(p.program, Program::kHopper192x128);
      EXPECT_EQ(p.head_m, head_m);
      EXPECT_EQ(p.head_n, head_n);
      EXPECT_EQ(p.waves, 2);
      EXPECT_EQ(p.cluster_m, 1);
      EXPECT_EQ(p.cluster_n, slow ? 2 : 1);
      EXPECT_EQ(p.tiles, single.tiles);
      EXPECT_EQ(p.grid, sms);
    }
  }
  // Not below that K, not on one token tile (192 tokens), not where the pairs would
  // take a third wave (7 x 35 tiles of 128 x 112: 4 x 35 pairs; single 256 x 128 CTAs
  // there, RowTilesOf256OverSingle112OnSlowDram).
  EXPECT_EQ(cake::plan(896, 3840, 18944, 128, Arch::SM90, 132, kSlow).cluster_m, 1);
  for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{4096, 1536, kMinK - 4096},
                         {512, 8192, cake::kHopperSlowDram256RowTilesMinK - 2048},
                         {192, 28672, 18944}}) {
    const cake::Plan at0 = cake::plan(M, N, K, 128, Arch::SM90, 132);
    const cake::Plan slow = cake::plan(M, N, K, 128, Arch::SM90, 132, kSlow);
    EXPECT_EQ(at0.waves, 2) << M << " " << N << " " << K;
    EXPECT_EQ(slow.cluster_m, at0.cluster_m) << M << " " << N << " " << K;
    EXPECT_EQ(slow.cluster_n, at0.cluster_n) << M << " " << N << " " << K;
    EXPECT_EQ(slow.grid, at0.grid) << M << " " << N << " " << K;
  }
}

// On slower DRAM (the limit and an H100 SXM's 3352 GB/s): one wave of single
// 256 x 128 CTAs over the whole problem, unsplit, on `grid` CTAs.
void expect_slow_dram_256_row_wave(int64_t M, int64_t N, int64_t K, int64_t grid) {
  for (int dram : {cake::kHopperSlowDramMaxGbps, 3352}) {
    const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, 132, dram);
    EXPECT_EQ(p.program, Program::kHopper256x128) << dram;
    EXPECT_EQ(p.head_m, M);
    EXPECT_EQ(p.head_n, N);
    EXPECT_EQ(p.waves, 1);
    EXPECT_EQ(p.split_k, 1);
    EXPECT_EQ(p.cluster_m * p.cluster_n, 1);
    EXPECT_EQ(p.grid, grid);
  }
}

// On slower DRAM, two waves of 128 x 128 tiles over the whole problem, single or in
// pairs sharing the token tile, from kHopperSlowDram256RowTilesMinK on: one wave of
// single 256 x 128 CTAs (the same work on the busiest SM). The H200 keeps the plan.
TEST(PlanSm90, RowTilesOf256OnSlowDram) {
  constexpr int kSlow = cake::kHopperSlowDramMaxGbps;
  constexpr int64_t kMinK = cake::kHopperSlowDram256RowTilesMinK;
  // Single CTAs: 4 x 64 / 14 x 16 tiles (M = 448: 2 x 64 of 256 rows); pairs along N:
  // 8 x 32 at K = 18944 (pairs from kHopperSlowDramTwoWavePairsMinK on every board there).
  using Case = std::tuple<int64_t, int64_t, int64_t, int, int64_t>;
  for (const auto& [M, N, K, pairs_n, grid] :
       {Case{448, 8192, 7168, 1, 128}, Case{1792, 2048, kMinK, 1, 112}, Case{1024, 4096, 18944, 2, 128}}) {
    SCOPED_TRACE(std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(K));
    for (int dram : {0, 4916, kSlow + 1}) {
      const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, 132, dram);
      EXPECT_EQ(p.program, Program::kHopper128x128);
      EXPECT_EQ(p.waves, 2);
      EXPECT_EQ(p.cluster_m, 1);
      EXPECT_EQ(p.cluster_n, pairs_n);
    }
    expect_slow_dram_256_row_wave(M, N, K, grid);
  }
  // Not below that K; not in place of pairs sharing the weight tile (M = 448,
  // N = 8192 from kHopperSlowDramTwoWavePairsMinK); not where 256 x 128 tiles take two
  // waves too (M = 640, N = 6144: 144 of them); not on few SMs (kHopperFewSms: on 78,
  // 4 x 38 tiles of 128 x 128 are two waves, 2 x 38 of 256 x 128 would be one).
  for (auto [M, N, K, sms] : {std::tuple<int64_t, int64_t, int64_t, int>{512, 8192, kMinK - 2048, 132},
                              {448, 8192, cake::kHopperSlowDramTwoWavePairsMinK, 132},
                              {640, 6144, 8192, 132},
                              {512, 4864, 8192, 78}}) {
    const cake::Plan slow = cake::plan(M, N, K, 128, Arch::SM90, sms, kSlow);
    EXPECT_EQ(slow.program, Program::kHopper128x128) << M << " " << N << " " << K << " on " << sms;
  }
}

// On slower DRAM, two waves of single 128 x 112 CTAs over the whole problem (where
// neither pairing fits in two waves: 7 x 35 / 7 x 37 / 5 x 46 tiles), from
// kHopperSlowDram256RowTilesOver112MinK on, K not a multiple of
// kHopperSlowDram256RowTilesOver112KeepK: one wave of single 256 x 128 CTAs (8/7 of
// the outputs on the busiest SM). The H200 keeps the plan.
TEST(PlanSm90, RowTilesOf256OverSingle112OnSlowDram) {
  constexpr int kSlow = cake::kHopperSlowDramMaxGbps;
  constexpr int64_t kMinK = cake::kHopperSlowDram256RowTilesOver112MinK;
  for (const auto& [M, N, K, grid] :
       {std::tuple<int64_t, int64_t, int64_t, int64_t>{896, 3840, kMinK, 120}, {896, 4096, 18944, 128},
        {640, 5120, 14336, 120}}) {
    SCOPED_TRACE(std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(K));
    for (int dram : {0, 4916, kSlow + 1}) {
      const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, 132, dram);
      EXPECT_EQ(p.program, Program::kHopper128x112);
      EXPECT_EQ(p.waves, 2);
      EXPECT_EQ(p.cluster_m * p.cluster_n, 1);
    }
    expect_slow_dram_256_row_wave(M, N, K, grid);
  }
  // Not below that K; not at K = 16384 (the 128 x 112 CTAs measured faster there); not
  // in place of 128 x 112 pairs (M = 1024, N = 3584, K = 18944 along N; M = 512,
  // N = 7168, K = 18944 along M: there the pairs measured faster).
  static_assert(16384 % cake::kHopperSlowDram256RowTilesOver112KeepK == 0);
  for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{896, 4096, kMinK - 4096},
                         {896, 3840, 16384},
                         {640, 5120, 16384},
                         {1024, 3584, 18944},
                         {512, 7168, 18944}}) {
    const cake::Plan slow = cake::plan(M, N, K, 128, Arch::SM90, 132, kSlow);
    EXPECT_EQ(slow.program, Program::kHopper128x112) << M << " " << N << " " << K;
    EXPECT_EQ(slow.waves, 2) << M << " " << N << " " << K;
  }
}

// On slower DRAM, three or more waves of 128 x 112 pairs sharing the token tile over
// the whole problem, from kHopperSlowDramWideTilesMinK on: 128 x 160 pairs where they
// take fewer waves for at most kHopperSlowDramWideTilesMaxWorkPercent of the K-block
// work on the busiest SM (seven waves against five, fourteen against ten: 102%). The
// H200 keeps the plan.
TEST(PlanSm90, WideTilesOver112PairsOnSlowDram) {
  constexpr int kSlow = cake::kHopperSlowDramMaxGbps;
  constexpr int64_t kMinK = cake::kHopperSlowDramWideTilesMinK;
  for (const auto& [M, N, K, waves, wide_waves] :
       {std::tuple<int64_t, int64_t, int64_t, int, int>{2560, 5120, 18944, 7, 5}, {896, 13824, kMinK, 7, 5},
        {1280, 10240, 16384, 7, 5}, {896, 28672, 14336, 14, 10}}) {
    SCOPED_TRACE(std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(K));
    for (int dram : {0, 4916, kSlow + 1}) {
      const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, 132, dram);
      EXPECT_EQ(p.program, Program::kHopper128x112);
      EXPECT_EQ(p.waves, waves);
      EXPECT_EQ(p.cluster_n, 2);
    }
    for (int dram : {kSlow, 3352}) {
      const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, 132, dram);
      EXPECT_EQ(p.program, Program::kHopper128x160);
      EXPECT_EQ(p.head_m, M);
      EXPECT_EQ(p.head_n, N);
      EXPECT_EQ(p.waves, wide_waves);
      EXPECT_EQ(p.split_k, 1);
      EXPECT_EQ(p.cluster_n, 2);
    }
  }
  // Not below that K; not four waves against three (107% of the work: M = 2048,
  // N = 3584 read 1.013-1.035 at K = 12288..16384); not where 128 x 160 pairs take as
  // many waves (three each at M = 1792, N = 3072: 1.25-1.39 of the plan).
  for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{896, 13824, kMinK - 2048},
                         {2048, 3584, 18944},
                         {512, 14336, 18944},
                         {1792, 3072, 18944}}) {
    const cake::Plan slow = cake::plan(M, N, K, 128, Arch::SM90, 132, kSlow);
    EXPECT_EQ(slow.program, Program::kHopper128x112) << M << " " << N << " " << K;
  }
}

// In place of two regions whose 192 x 128 head takes two waves (kHopper256RowTiles*):
// 256 x 128 tiles over the whole problem, single CTAs, in at most two waves, on more
// than kHopperFewSms SMs, on every board. M = 1024, N = K = 8192 and the grid's
// M = 2048, N = 4096, K = 4096 / 14336: 256 tiles, two waves. Few SMs keep the plan by
// the shape, and so do heads the tiles would need a third wave for (M = 4096, N = 2560,
// above).
TEST(PlanSm90, RowTilesOf256) {
  for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{1024, 8192, 8192}, {2048, 4096, 4096},
                         {2048, 4096, 14336}}) {
    SCOPED_TRACE(std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(K));
    for (int dram : {0, 4916, cake::kHopperSlowDramMaxGbps, 3352}) {
      const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, 132, dram);
      EXPECT_EQ(p.program, Program::kHopper256x128);
      EXPECT_EQ(p.tile_m, 256);
      EXPECT_EQ(p.tile_n, 128);
      EXPECT_EQ(p.head_m, M);
      EXPECT_EQ(p.head_n, N);
      EXPECT_EQ(p.split_k, 1);
      EXPECT_EQ(p.cluster_m * p.cluster_n, 1);
      EXPECT_EQ(p.waves, 2);
      EXPECT_EQ(p.grid, 132);
    }
    // Few SMs: the plan by the shape, whatever it is there.
    EXPECT_NE(cake::plan(M, N, K, 128, Arch::SM90, cake::kHopperFewSms).program, Program::kHopper256x128);
  }
  // Not where the rest is split over clusters, which leaves the busiest SM less K-block
  // work than the tiles would: M = 768, N = 10240 (cut along columns, a rest of 192 x 112,
  // split 2) and M = 3072, N = 2560 (192 x 128, split 2), both 240 tiles of 256 x 128.
  for (auto [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{768, 10240, 16384}, {3072, 2560, 16384}}) {
    for (int dram : {0, 3352}) {
      SCOPED_TRACE(std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(K) + " dram_gbps " +
                   std::to_string(dram));
      const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, 132, dram);
      EXPECT_EQ(p.program, Program::kHopper192x128);
      EXPECT_EQ(p.waves, cake::kHopper256RowTilesHeadWaves);
      ASSERT_TRUE(p.head_m < M || p.head_n < N);
      const cake::Plan rest = p.head_m < M ? cake::plan(M - p.head_m, N, K, 128, Arch::SM90, 132, dram)
                                           : cake::plan(M, N - p.head_n, K, 128, Arch::SM90, 132, dram);
      EXPECT_EQ(rest.split_k, 2);
    }
  }
}

TEST(PlanSm90, OneProgramPlannedOnAnyShape) {
  // plan() is the choice of program plus plan_sm90_program for it, on its head_m
  // rows (all of them but at M = 4096: two row regions).
  for (int64_t M : {1, 64, 65, 4096}) {
    const cake::Plan chosen = cake::plan(M, 4096, 4096, 64, Arch::SM90, 132);
    const cake::Plan same = cake::plan_sm90_program(chosen.program, chosen.head_m, 4096, 4096, 132);
    EXPECT_EQ(same.tiles, chosen.tiles);
    EXPECT_EQ(same.grid, chosen.grid);
    EXPECT_EQ(same.split_k, chosen.split_k);
  }
  // The swap program on M = 128: two 64-token tiles.
  const cake::Plan swap = cake::plan_sm90_program(Program::kHopperSwap128x64, 128, 4096, 4096, 132);
  EXPECT_EQ(swap.tiles_m, 2);
  EXPECT_EQ(swap.tiles, 64);
  EXPECT_EQ(swap.split_k, 2);
  EXPECT_THROW(cake::plan_sm90_program(Program::kBlackwellStatic, 1, 8, 16, 132), cake::InvalidArgument);
}

// Few SMs, 33..64 tokens (kHopperSwapWideWeightTiles*): 128-row weight tiles
// unsplit where they stream no more rows than the 64-row plan (+5%); never on 132.
TEST(PlanSm90, WideWeightTilesOnFewSms) {
  for (int64_t M : {33, 64}) {
    for (int sms : {66, 78}) {
      const cake::Plan p = cake::plan(M, 28672, 4096, 128, Arch::SM90, sms);
      EXPECT_EQ(p.program, Program::kHopperSwap128x64) << M << " tokens on " << sms << " SMs";
      EXPECT_EQ(p.split_k, 1);
      EXPECT_EQ(p.tiles, 224);
    }
    // 78 SMs, N = 14336: two waves of 112 tiles would stream 111% of the rows.
    EXPECT_EQ(cake::plan(M, 14336, 4096, 128, Arch::SM90, 78).program, Program::kHopperSwap64x64);
    EXPECT_EQ(cake::plan(M, 14336, 4096, 128, Arch::SM90, 66).program, Program::kHopperSwap128x64);
    for (int sms : {96, 132})
      EXPECT_EQ(cake::plan(M, 28672, 4096, 128, Arch::SM90, sms).program, Program::kHopperSwap64x64) << sms;
  }
  // Up to 32 tokens the narrow-token programs stay; past 64 the rule does not apply.
  EXPECT_EQ(cake::plan(32, 28672, 4096, 128, Arch::SM90, 66).program, Program::kHopperSwap64x32);
  EXPECT_NE(cake::plan(65, 2048, 2048, 128, Arch::SM90, 66).program, Program::kHopperSwap128x64);
  // Not on half the SMs or fewer: 32 tiles of 128 rows lost to 64 of 64 on 66 SMs.
  EXPECT_EQ(cake::plan(64, 4096, 4096, 128, Arch::SM90, 66).program, Program::kHopperSwap64x64);
  EXPECT_EQ(cake::plan(64, 4096, 14336, 128, Arch::SM90, 66).program, Program::kHopperSwap64x64);
}

TEST(PlanSm90, PromotionEvery128KFromLongK) {
  // Every 64 K below kHopperLongPromotionMinK, every 128 K from it on, whatever the
  // program; forced depths are honoured and anything else is refused.
  for (int64_t M : {1, 64, 128, 512, 4096}) {
    EXPECT_EQ(cake::plan(M, 4096, cake::kHopperLongPromotionMinK - 16, 128, Arch::SM90, 132).promotion_k, 64) << M;
    EXPECT_EQ(cake::plan(M, 4096, cake::kHopperLongPromotionMinK, 128, Arch::SM90, 132).promotion_k, 128) << M;
  }
  EXPECT_EQ(cake::plan(1, 8, 16, 0, Arch::SM90, 132).promotion_k, 64);
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopper128x128, 512, 4096, 128, 132, 0, 0, 128).promotion_k, 128);
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopper128x128, 512, 4096, 65536, 132, 0, 0, 64).promotion_k, 64);
  for (int promotion_k : {-64, 32, 96, 256})
    EXPECT_THROW(cake::plan_sm90_program(Program::kHopper128x128, 512, 4096, 4096, 132, 0, 0, promotion_k),
                 cake::InvalidArgument)
        << promotion_k;
  // Not a Hopper notion.
  EXPECT_EQ(cake::plan(4096, 4096, 16384, 128, Arch::SM100, 148).promotion_k, 0);
}

TEST(PlanSm90, RankDoesNotChangeTheProgram) {
  for (int64_t r : {0, 32, 64, 128})
    EXPECT_EQ(name(cake::plan(300, 4096, 4096, r, Arch::SM90, 132)), "fp8_hopper_swap_128x80");
}

// ---------------------------------------------------------------- Blackwell

TEST(PlanBlackwell, PairTileWidthFromShapeAndSmCount) {
  // 148 SMs -> 74 resident pairs. 256 x 256 tiles: 8 x 9 = 72 < 74 -> width 128.
  cake::Plan p = cake::plan(2048, 2304, 4096, 64, Arch::SM100, 148);
  EXPECT_EQ(p.tile_m, 256);
  EXPECT_EQ(p.tile_n, 128);
  EXPECT_EQ(p.tiles, 8 * 18);
  EXPECT_EQ(p.cluster_m, 2);
  // 8 x 10 = 80 >= 74 -> width 256.
  p = cake::plan(2048, 2560, 4096, 64, Arch::SM100, 148);
  EXPECT_EQ(p.tile_n, 256);
  // Exactly 74 = 2 x 37 -> 256; 73 (prime, 1 x 73) -> 128.
  EXPECT_EQ(cake::plan(512, 256 * 37, 4096, 64, Arch::SM100, 148).tile_n, 256);
  EXPECT_EQ(cake::plan(256, 256 * 73, 4096, 64, Arch::SM100, 148).tile_n, 128);
  // The same shape on fewer SMs resolves the wider tile.
  EXPECT_EQ(cake::plan(2048, 2304, 4096, 64, Arch::SM100, 144).tile_n, 256);
  EXPECT_EQ(cake::plan(2048, 2304, 4096, 64, Arch::SM100, 146).tile_n, 128);
}

TEST(PlanBlackwell, SmallProblemsRunStatic) {
  for (Arch arch : {Arch::SM100, Arch::SM103}) {
    const cake::Plan p = cake::plan(1, 4096, 4096, 128, arch, 148);
    EXPECT_EQ(p.program, Program::kBlackwellStatic);
    EXPECT_STREQ(p.scheduler, "static_persistent");
    EXPECT_EQ(p.grid, 2 * p.tiles);
  }
}

TEST(PlanBlackwell, L2PointTenTilesPerPair) {
  // 37 x 20 = 740 pair tiles of 256 x 256, K = 16384.
  const int64_t M = 256 * 37, N = 256 * 20, K = 16384;
  EXPECT_EQ(cake::plan(M, N, K, 64, Arch::SM100, 148).program, Program::kBlackwellL2Point);  // 740 >= 10*74
  EXPECT_EQ(cake::plan(M, N, K, 64, Arch::SM100, 150).program, Program::kBlackwellStatic);   // 740 < 10*75
  const cake::Plan p = cake::plan(M, N, K, 64, Arch::SM100, 148);
  EXPECT_STREQ(p.scheduler, "dynamic");
  EXPECT_STREQ(p.raster, "blocked");
  EXPECT_EQ(p.raster_block_m, cake::kBlackwellRasterBlockM);
  EXPECT_EQ(p.raster_block_n, cake::kBlackwellRasterBlockN);
  EXPECT_EQ(name(p), "fp8_blackwell_l2_point");
}

TEST(PlanBlackwell, L2PointNeedsLargeK) {
  const int64_t M = 256 * 37, N = 256 * 20;
  EXPECT_EQ(cake::plan(M, N, 16384, 64, Arch::SM100, 148).program, Program::kBlackwellL2Point);
  EXPECT_EQ(cake::plan(M, N, 16256, 64, Arch::SM100, 148).program, Program::kBlackwellStatic);
}

TEST(PlanBlackwell, L2PointNeedsAProperRasterBlock) {
  // One pair (2 SMs): ten tiles are enough, the block decides.
  const int64_t K = 16384;
  EXPECT_EQ(cake::plan(1024, 1024, K, 64, Arch::SM100, 2).program, Program::kBlackwellStatic);   // 4x4: not larger
  EXPECT_EQ(cake::plan(1024, 1280, K, 64, Arch::SM100, 2).program, Program::kBlackwellL2Point);  // 4x5
  EXPECT_EQ(cake::plan(1280, 1024, K, 64, Arch::SM100, 2).program, Program::kBlackwellL2Point);  // 5x4
  EXPECT_EQ(cake::plan(768, 1536, K, 64, Arch::SM100, 2).program, Program::kBlackwellStatic);    // 3x6: does not fit
  EXPECT_EQ(cake::plan(1536, 768, K, 64, Arch::SM100, 2).program, Program::kBlackwellStatic);    // 6x3
}

TEST(PlanBlackwell, TileMOnSm103ForTheLongestRuns) {
  // 74 pairs; 512 x 256 tiles: 38 x 37 = 1406 -> 19 waves; 39 x 37 = 1443 -> 20 waves.
  const int64_t N = 256 * 37;
  EXPECT_EQ(cake::plan(512 * 39, N, 32768, 128, Arch::SM103, 148).program, Program::kBlackwellTileM);
  EXPECT_EQ(cake::plan(512 * 38, N, 32768, 128, Arch::SM103, 148).program, Program::kBlackwellL2Point);
  EXPECT_EQ(cake::plan(512 * 39, N, 32640, 128, Arch::SM103, 148).program, Program::kBlackwellL2Point);
  // SM100 never takes the 512-row tile.
  EXPECT_EQ(cake::plan(512 * 39, N, 32768, 128, Arch::SM100, 148).program, Program::kBlackwellL2Point);
  const cake::Plan p = cake::plan(512 * 39, N, 32768, 128, Arch::SM103, 148);
  EXPECT_EQ(p.tile_m, 512);
  EXPECT_EQ(p.tile_n, 256);
  EXPECT_EQ(p.tiles, 39 * 37);
  EXPECT_EQ(p.waves, 20);
  EXPECT_STREQ(p.scheduler, "dynamic");
  EXPECT_EQ(name(p), "fp8_blackwell_tile_m");
}

TEST(Plan, IsPure) {
  const cake::Plan a = cake::plan(777, 4104, 16400, 64, Arch::SM90, 132);
  const cake::Plan b = cake::plan(777, 4104, 16400, 64, Arch::SM90, 132);
  EXPECT_EQ(a.program, b.program);
  EXPECT_EQ(a.tiles, b.tiles);
  EXPECT_EQ(a.grid, b.grid);
}

bool same_plan(const cake::Plan& a, const cake::Plan& b) {
  return a.program == b.program && a.arch == b.arch && a.tile_m == b.tile_m && a.tile_n == b.tile_n &&
         a.tile_k == b.tile_k && a.swap_ab == b.swap_ab && a.cluster_m == b.cluster_m && a.cluster_n == b.cluster_n &&
         a.split_k == b.split_k && std::strcmp(a.scheduler, b.scheduler) == 0 && std::strcmp(a.raster, b.raster) == 0 &&
         a.raster_group == b.raster_group && a.raster_block_m == b.raster_block_m &&
         a.raster_block_n == b.raster_block_n && a.tiles_m == b.tiles_m && a.tiles_n == b.tiles_n &&
         a.tiles == b.tiles && a.workers == b.workers && a.waves == b.waves && a.grid == b.grid &&
         a.promotion_k == b.promotion_k && a.head_m == b.head_m && a.head_n == b.head_n;
}

TEST(Plan, RemembersPlansPerThreadAndReturnsWhatItComputes) {
  // More problems than the per-thread cache holds (64), so that entries are evicted
  // and slots shared: a fresh thread computes each problem once (its first call for
  // a problem cannot hit), and this thread, asking in another order and twice, must
  // get the same plans, whether from its cache or computed again.
  struct Problem {
    int64_t M, N, K, r;
    Arch arch;
    int sms;
  };
  std::vector<Problem> problems;
  for (int64_t M : {1, 16, 100, 128, 192, 512, 2048, 8192})
    for (int64_t N : {4096, 6144, 28672})
      for (int64_t K : {1024, 4096, 14336})
        problems.push_back({M, N, K, M % 3 == 0 ? 0 : 128, M == 512 ? Arch::SM100 : Arch::SM90, N == 6144 ? 114 : 132});
  ASSERT_GT(problems.size(), 64u);
  std::vector<cake::Plan> fresh;
  std::thread([&] {
    for (const Problem& p : problems) fresh.push_back(cake::plan(p.M, p.N, p.K, p.r, p.arch, p.sms));
  }).join();
  for (int pass = 0; pass < 2; ++pass)
    for (size_t i = problems.size(); i-- > 0;) {
      const Problem& p = problems[i];
      EXPECT_TRUE(same_plan(cake::plan(p.M, p.N, p.K, p.r, p.arch, p.sms), fresh[i]))
          << p.M << " " << p.N << " " << p.K << " pass " << pass;
    }
  // The same problem on another SM count or architecture is another plan.
  EXPECT_NE(cake::plan(192, 4096, 2048, 128, Arch::SM90, 132).program,
            cake::plan(192, 4096, 2048, 128, Arch::SM90, 114).program);
  EXPECT_NE(cake::plan(192, 4096, 4096, 128, Arch::SM90, 132).program,
            cake::plan(192, 4096, 4096, 128, Arch::SM100, 132).program);
  // ... and on another DRAM bandwidth, asked for in turn.
  for (int pass = 0; pass < 2; ++pass) {
    EXPECT_EQ(cake::plan(512, 3584, 18944, 128, Arch::SM90, 132).cluster_m, 1);
    EXPECT_EQ(cake::plan(512, 3584, 18944, 128, Arch::SM90, 132, 3352).cluster_m, 2);
  }
}

TEST(Plan, RejectsNonsense) {
  EXPECT_THROW(cake::plan(0, 8, 16, 0, Arch::SM90, 132), cake::InvalidArgument);
  EXPECT_THROW(cake::plan(1, 8, 16, 0, Arch::SM90, 0), cake::InvalidArgument);
  EXPECT_THROW(cake::plan(1, 8, 16, 0, Arch::SM90, 132, -1), cake::InvalidArgument);
}

TEST(Arch, Names) {
  EXPECT_EQ(cake::parse_arch("sm90"), Arch::SM90);
  EXPECT_EQ(cake::parse_arch("sm_90a"), Arch::SM90);
  EXPECT_EQ(cake::parse_arch("SM100"), Arch::SM100);
  EXPECT_EQ(cake::parse_arch("sm103"), Arch::SM103);
  EXPECT_FALSE(cake::parse_arch("sm120").has_value());
  EXPECT_EQ(cake::arch_from_compute_capability(9, 0), Arch::SM90);
  EXPECT_EQ(cake::arch_from_compute_capability(10, 0), Arch::SM100);
  EXPECT_EQ(cake::arch_from_compute_capability(10, 3), Arch::SM103);
  for (auto [major, minor] : {std::pair{8, 0}, {8, 9}, {12, 0}, {12, 1}, {9, 1}, {10, 1}})
    EXPECT_FALSE(cake::arch_from_compute_capability(major, minor).has_value()) << major << "." << minor;
}

// One partial wave of 128 x 128 tiles unsplit at long K: the 192 x 128 program in
// split-K pairs where that leaves the busiest SM at most 80% of the K-block work
// (kHopperSplitWideTileMinK); not below K = 8192, and not where 192 x 128 tiles are
// more than the resident pairs (no split: the grid's M = 512, N = 4096, K = 14336).
// Since version 60 the split tiles are the 192-token program's fitted ones (63 tiles
// of 192 x 112 on 126 SMs, where 57 of 192 x 128 took 114).
TEST(PlanSm90, SplitWideTilesForOnePartialWaveAtLongK) {
  for (int64_t K : {cake::kHopperSplitWideTileMinK, int64_t{14336}, int64_t{18944}}) {
    const cake::Plan p = cake::plan(520, 2312, K, 128, Arch::SM90, 132);
    EXPECT_EQ(name(p), "fp8_hopper_192x112") << K;
    EXPECT_EQ(p.split_k, 2) << K;
    EXPECT_EQ(p.grid, 126) << K;
  }
  // Where that split leaves the K-block work of 128 weight rows x 96 tokens in pairs,
  // those unsplit since version 52 (fitted token tiles; below the K since version 38).
  for (int64_t K : {cake::kHopperSplitWideTileMinK - 16, cake::kHopperSplitWideTileMinK, int64_t{14336}}) {
    expect_one_region_plan(OneRegionPlan{384, 4096, K, Program::kHopperSwap128x96, 2, 128, 1});
    EXPECT_EQ(cake::plan(384, 4096, K, 128, Arch::SM90, 132).cluster_m, 2) << K;  // pairs along the tokens
  }
  EXPECT_EQ(sm90_program(512, 4096, 14336), Program::kHopper128x128);
  EXPECT_EQ(sm90_program(168, 7176, 8208), Program::kHopperSwap128x96);
  EXPECT_EQ(sm90_program(376, 4104, 8208), Program::kHopperSwap128x96);
  // Since version 38 tiles of 128 weight rows x 80 tokens in pairs take 320 tokens
  // (kHopperFittedTokenTilesMaxWorkPercentLongK) and 136.
  EXPECT_EQ(sm90_program(320, 4096, 14336), Program::kHopperSwap128x80);
  EXPECT_EQ(sm90_program(136, 7176, 8208), Program::kHopperSwap128x80);
  // 128 x 128 tiles in two waves keep their plan.
  EXPECT_EQ(sm90_program(512, 8192, 8192), Program::kHopper128x128);
}

// Version 52: in place of 192 x 128 tiles split in two at long K, token tiles fitted
// to the tokens in pairs, unsplit, at the same work; not where the 128 x 80 weight
// tiles would then take the plan (in place of 128 x 144 split in two they lost).
TEST(PlanSm90, FittedTokenTilesUnsplitInPlaceOfASplit) {
  // (0.898 / 0.890 / 0.932 of the split plan's time.)
  for (const OneRegionPlan& c : {OneRegionPlan{192, 7168, 8192, Program::kHopperSwap128x96, 2, 112, 1},
                                 OneRegionPlan{384, 4096, 16384, Program::kHopperSwap128x96, 2, 128, 1},
                                 OneRegionPlan{192, 6144, 18944, Program::kHopperSwap128x96, 2, 96, 1}})
    expect_one_region_plan(c);
  // Where the 128 x 80 weight tiles would then take the plan, the split plan stays.
  EXPECT_EQ(cake::plan(512, 2304, 8192, 128, Arch::SM90, 132).program, Program::kHopper128x144);
  EXPECT_EQ(cake::plan(512, 2304, 8192, 128, Arch::SM90, 132).split_k, 2);
  EXPECT_EQ(cake::plan(384, 3072, 16384, 128, Arch::SM90, 132).program, Program::kHopper128x144);
}

// Version 38: token tiles of 80 or 96 where they leave the busiest SM at most
// kHopperFittedTokenTilesMaxWorkPercent of the chosen plan's work; in CTA pairs
// sharing each weight tile where the pairs take no more waves.
TEST(PlanSm90, FittedTokenTiles) {
  // (The pairs of the swap programs run along M: cluster_m.)
  for (const OneRegionPlan& c : {
           // 128 tiles of 128 weight rows x 80 tokens in one wave of pairs, against 96
           // of 128 x 128 (5/8 of the work)
           OneRegionPlan{320, 4096, 4096, Program::kHopperSwap128x80, 2, 128, 1},
           OneRegionPlan{160, 8192, 2048, Program::kHopperSwap128x80, 2, 128, 1},
           OneRegionPlan{192, 6144, 4096, Program::kHopperSwap128x96, 2, 96, 1},
           OneRegionPlan{384, 4096, 4096, Program::kHopperSwap128x96, 2, 128, 1},
           // 108 tiles of 96 tokens (three along M): pairs would take two waves (at 256
           // tokens 128 x 80 weight tiles take it since version 44; 264 make them two waves)
           OneRegionPlan{264, 4608, 3584, Program::kHopperSwap128x96, 1, 108, 1},
           // 64 weight rows x 80 / 96 tokens in place of 64 x 128 tiles (3/4, 5/8 of the work)
           OneRegionPlan{160, 4096, 14336, Program::kHopperSwap64x80, 2, 128, 1},
           OneRegionPlan{192, 4096, 4096, Program::kHopperSwap64x96, 2, 128, 1},
       }) {
    expect_one_region_plan(c);
    EXPECT_EQ(cake::plan(c.M, c.N, c.K, 128, Arch::SM90, 132).cluster_n, 1);
  }
  // At 83% of the work they are not taken below kHopperFittedTokenTilesLongK (lost
  // by up to 7%); from it on, in pairs up to kHopperFittedTokenTilesLongKMaxM tokens.
  // (Its instance M = 320, N = 8192 goes to 160-token tiles at every K since
  // version 65: TokenTilesOf160.)
  EXPECT_EQ(sm90_program(160, 7168, 8192), Program::kHopperSwap128x80);
  // Not in pairs past 512 tokens (there weight tiles of 112 take its two regions' place).
  EXPECT_EQ(sm90_program(1024, 7168, 8192), Program::kHopper128x112);
  // Single CTAs only in one wave (on three, 128 x 96 tiles lost to two regions of
  // 192-row ones, in whose place weight tiles of 144 now run).
  EXPECT_EQ(sm90_program(640, 7168, 8192), Program::kHopper128x144);
  // Not on two waves of 96-token tiles (there weight tiles of 144 are fitted instead).
  EXPECT_EQ(sm90_program(1024, 4608, 3584), Program::kHopper128x144);
  // From kHopperFittedTokenTilesManyWavesMinK, up to 90% of the work in pairs in
  // place of the 192 x 128 program on three waves or more (M = 192, N = 37888: five
  // waves of 96-token tiles against three of 192 x 128, 5/6 of the work); not below
  // that K, not where the fitted weight tiles or two regions take the plan.
  const int64_t many_waves_k = cake::kHopperFittedTokenTilesManyWavesMinK;
  for (int64_t K : {many_waves_k, int64_t{4096}, int64_t{6144}}) {
    expect_one_region_plan(OneRegionPlan{192, 37888, K, Program::kHopperSwap128x96, 2, 592, 5});
    EXPECT_EQ(cake::plan(192, 37888, K, 128, Arch::SM90, 132).cluster_m, 2) << K;  // pairs along the tokens
  }
  EXPECT_EQ(sm90_program(192, 37888, 2048), Program::kHopper192x128);
  EXPECT_EQ(sm90_program(384, 18944, 4096), Program::kHopper128x144);
  EXPECT_EQ(cake::plan(448, 14336, many_waves_k, 128, Arch::SM90, 132).head_m, 192);
  // Past kHopperFittedTokenTilesMaxM, never.
  EXPECT_EQ(sm90_program(cake::kHopperFittedTokenTilesMaxM + 64, 6144, 4096), Program::kHopper192x128);
  // The grid's shapes keep their programs: 128 tokens are 80 + 48 (more work than one tile of 128),
  // 512 are 7 tiles of 80 or 6 of 96 (M = 128, N = 28672 takes weight tiles of 112 instead).
  EXPECT_EQ(sm90_program(128, 4096, 4096), Program::kHopperSwap64x64);
  EXPECT_EQ(sm90_program(128, 28672, 4096), Program::kHopper128x112);
  EXPECT_EQ(sm90_program(512, 4096, 4096), Program::kHopper128x128);
  EXPECT_EQ(sm90_program(512, 6144, 4096), Program::kHopperSwap192x128);
}

// Token tiles tight on the tokens at long K (kHopperTightTokenTiles*): the 64-row swap
// program on 80, 96 or 128 tokens that covers M in the fewest tiles, then with the least
// padding, in place of 64-token tiles, of one 128-token tile or of 128 x 64 tiles split
// in four; every plan measured, H200 (rules.h).
TEST(PlanSm90, TightTokenTilesAtLongK) {
  auto expect = [](int64_t M, int64_t N, int64_t K, Program program, int split, int64_t tiles, int grid) {
    const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, 132);
    SCOPED_TRACE(std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(K));
    EXPECT_EQ(p.program, program);
    EXPECT_EQ(p.split_k, split);
    EXPECT_EQ(p.tiles, tiles);
    EXPECT_EQ(p.grid, grid);
    EXPECT_EQ(p.waves, 1);
  };
  const int64_t long_k = 8192;
  // One tile of 96 tokens in place of 128 (0.888 of the time).
  expect(96, 1280, long_k, Program::kHopperSwap64x96, 4, 20, 80);
  // Two of 80 / 96 split in two in place of 128 x 64 tiles split in four (0.808 / 0.843).
  expect(160, 1280, long_k, Program::kHopperSwap64x80, 2, 40, 80);
  expect(192, 1280, long_k, Program::kHopperSwap64x96, 2, 40, 80);
  // Three of 128 split in two in place of six of 64 (0.901), of 96 split in four in
  // place of 64 split in two (0.925).
  expect(384, 1280, long_k, Program::kHopperSwap64x128, 2, 60, 120);
  expect(288, 512, 16384, Program::kHopperSwap64x96, 4, 24, 96);
  // From kHopperTightTokenTilesMinK the same where the split stays or the K blocks per
  // CTA stay many: one tile of 96 / two of 80 in place of 128 / 128 x 64 tiles split in
  // four (0.880 / 0.749 at K = 4096; 0.880 / 0.826 at K = 2048; M = 65, N = 512 0.790,
  // M = 144, N = 1024 0.736 at K = 512), two of 80 unsplit in place of two of 64 on
  // 40-row tiles (M = 80, N = 2304, K = 4096 0.861), one of 80 unsplit in place of one
  // of 128 (M = 65, N = 4608, K = 2048 0.837; N = 5120, K = 512 0.869).
  const int64_t min_k = cake::kHopperTightTokenTilesMinK;
  expect(65, 512, min_k, Program::kHopperSwap64x80, 4, 8, 32);
  expect(144, 1024, min_k, Program::kHopperSwap64x80, 2, 32, 64);
  expect(65, 5120, min_k, Program::kHopperSwap64x80, 1, 80, 80);
  expect(96, 1280, 2048, Program::kHopperSwap64x96, 4, 20, 80);
  expect(160, 1280, 2048, Program::kHopperSwap64x80, 2, 40, 80);
  expect(96, 1280, 4096, Program::kHopperSwap64x96, 4, 20, 80);
  expect(160, 1280, 4096, Program::kHopperSwap64x80, 2, 40, 80);
  expect(65, 4608, 2048, Program::kHopperSwap64x80, 1, 72, 72);
  // A two-way split from ...TwoWayMinKBlocks K blocks per CTA up to ...TwoWayMaxM
  // tokens (M = 256, N = 1280, K = 7168 0.912), below it from K = ...WorkCutMinK where
  // the tensor work falls (M = 80, N = 4096, K = 4096: one tile of 80 split in two in
  // place of two of 64, 0.975); not at equal work below it, nor past those tokens, nor
  // below that K (M = 96, N = 3840, K = 3584 1.049).
  const int64_t two_way_k = cake::kHopperTightTokenTilesTwoWayMinKBlocks * 2 * 128;
  const int64_t work_cut_k = cake::kHopperTightTokenTilesTwoWayWorkCutMinK;
  expect(256, 1280, two_way_k, Program::kHopperSwap64x128, 2, 64, 128);
  expect(80, 4096, work_cut_k, Program::kHopperSwap64x80, 2, 64, 128);
  EXPECT_EQ(sm90_program(256, 1280, two_way_k - 128), Program::kHopperSwap64x64);
  EXPECT_EQ(sm90_program(128, 4096, work_cut_k), Program::kHopperSwap64x64);
  EXPECT_EQ(sm90_program(80, 4096, work_cut_k - 128), Program::kHopperSwap64x64);
  EXPECT_EQ(sm90_program(96, 3840, 3584), Program::kHopperSwap64x64);
  EXPECT_EQ(sm90_program(cake::kHopperTightTokenTilesTwoWayMaxM + 64, 1024, two_way_k), Program::kHopperSwap64x64);
  // Not below kHopperTightTokenTilesMinK, nor at decode, nor in place of token tiles in
  // multicast pairs (their own rule).
  EXPECT_EQ(sm90_program(65, 5120, min_k - 128), Program::kHopperSwap64x128);
  EXPECT_EQ(sm90_program(64, 1280, long_k), Program::kHopperSwap64x64);
  EXPECT_EQ(cake::plan(96, 4096, 4112, 128, Arch::SM90, 132).cluster_m, 2);
  // Not on fewer SMs over more than kHopperTightTokenTilesFewerSmsMaxWeightBytes of weights.
  EXPECT_EQ(sm90_program(96, 7168, long_k), Program::kHopperSwap64x128);
  // Not to a larger split with fewer than ...MoreSplitMinKBlocks K blocks per CTA.
  EXPECT_EQ(sm90_program(384, 512, long_k), Program::kHopperSwap64x64);
  EXPECT_EQ(sm90_program(384, 512, 4 * cake::kHopperTightTokenTilesMoreSplitMinKBlocks * 128),
            Program::kHopperSwap64x128);
  // Not past kHopperTightTokenTilesMaxM, nor where fitted token tiles took the plan,
  // nor in place of two 128-token tiles or of 128 x 64 tiles split in two, nor to more
  // tensor work (192 x 1024: 96-token tiles on 64 of 132 SMs; 320 x 1536: 128-token
  // tiles unsplit on 40-row weight tiles).
  EXPECT_EQ(sm90_program(1024, 512, long_k), Program::kHopperSwap64x64);
  EXPECT_EQ(sm90_program(208, 512, 16384), Program::kHopperSwap64x80);
  EXPECT_EQ(sm90_program(192, 1024, long_k), Program::kHopperSwap64x64);
  EXPECT_EQ(sm90_program(176, 1536, 16384), Program::kHopperSwap64x128);
  EXPECT_EQ(sm90_program(176, 2560, 4096), Program::kHopperSwap128x64);
  EXPECT_EQ(sm90_program(320, 1536, long_k), Program::kHopperSwap64x64);
}

// Weight tiles fitted to the weights (kHopperFittedWeightTiles*): 128 tokens by 112
// or 144 weight rows in place of the 128 x 128 and 192-row programs, in no more
// waves (at most two) and at most 88% of the busiest SM's K-block work; on more
// waves at most 80%, or from K = 8192 88%.
TEST(PlanSm90, FittedWeightTiles) {
  for (const OneRegionPlan& c : {
           // 126 tiles of 128 x 112 against 108 of 128 x 128 (7/8 of the work)
           OneRegionPlan{384, 4608, 3584, Program::kHopper128x112, 1, 126, 1},
           // 129 of 128 x 144 against 96 of 192 x 128 (3/4)
           OneRegionPlan{384, 6144, 4096, Program::kHopper128x144, 1, 129, 1},
           // two waves each: 256 of 128 x 144 against 216 of 192 x 128; 256 of
           // 128 x 112 against 224 of 128 x 128
           OneRegionPlan{1024, 4608, 3584, Program::kHopper128x144, 1, 256, 2},
           OneRegionPlan{512, 7168, 8192, Program::kHopper128x112, 1, 256, 2},
       })
    expect_one_region_plan(c);
  // On more waves than the chosen plan at 7/8 of its work only from K = 8192
  // (kHopperFittedWeightTilesLongK): M = 1792, N = 3072, 3 waves of 128 x 112 in
  // CTA pairs against 2 of 192 x 128 (192 x 112 and 128 x 160 would take 3 too); at
  // K = 7168 (and 4096) the 192-row tiles stay. (M = 384, N = 14336 was the case
  // until version 60; two waves of 192 x 112 take it now, FittedWeightTilesOf192Tokens.)
  // ... and 128 x 144 at 7/8: M = 896, N = 37888, K = 8192, 14 waves against 12 of
  // the turned 192 x 128 (at K = 4096 the turned tiles stay).
  for (const OneRegionPlan& c : {
           OneRegionPlan{1792, 3072, 8192, Program::kHopper128x112, 2, 392, 3},
           OneRegionPlan{1792, 3072, 18944, Program::kHopper128x112, 2, 392, 3},
           OneRegionPlan{896, 37888, 8192, Program::kHopper128x144, 2, 1848, 14},
       })
    expect_one_region_plan(c);
  EXPECT_EQ(sm90_program(1792, 3072, 7168), Program::kHopper192x128);
  EXPECT_EQ(sm90_program(1792, 3072, 4096), Program::kHopper192x128);
  EXPECT_EQ(sm90_program(896, 37888, 4096), Program::kHopperSwap192x128);
  // Not in place of a cut into two regions, which the estimate likes better:
  // M = 3072, N = 3584, K = 8192 keeps a head of 3072 columns of 192 x 128 tiles.
  EXPECT_EQ(cake::plan(3072, 3584, 8192, 128, Arch::SM90, 132).head_n, 3072);
  // Not past two waves at 0.93 of the work (M = 2048, N = 7168, K = 8192: 8 of 128 x 112).
  EXPECT_EQ(sm90_program(2048, 7168, 8192), Program::kHopper192x128);
  // On more waves at most 80% of the work (kHopperFittedWeightTilesManyWavesMaxWorkPercent):
  // M = 2048, N = 3584, K = 18944, 4 waves of 128 x 112 against 3 of 192 x 128 in
  // pairs (7/9); M = 1536, N = 4608, K = 3584, 3 waves of 128 x 144 against 3 (3/4).
  EXPECT_EQ(sm90_program(2048, 3584, 18944), Program::kHopper128x112);
  EXPECT_EQ(sm90_program(1536, 4608, 3584), Program::kHopper128x144);
  // From kHopperMulticastMinWaves waves on, in CTA pairs sharing the token tile (as
  // the 128 x 128 and wider tiles are).
  EXPECT_EQ(cake::plan(2048, 3584, 18944, 128, Arch::SM90, 132).cluster_n, 2);
  EXPECT_EQ(cake::plan(384, 4608, 3584, 128, Arch::SM90, 132).cluster_n, 1);  // one wave
  // In place of two regions at 7/8 of both regions' work: M = 512, N = 14336,
  // K = 8192 is rows 0-383 in two waves of 192 x 128 and one wave of 112 tiles of
  // 128 x 128 after them; 4 waves of 128 x 112 instead.
  {
    const cake::Plan p = cake::plan(512, 14336, 8192, 128, Arch::SM90, 132);
    EXPECT_EQ(p.program, Program::kHopper128x112);
    EXPECT_EQ(p.head_m, 512);
    EXPECT_EQ(p.waves, 4);
  }
  // Not at 11/12 of the work: M = 1024, N = 28672 is turned 192-row tiles.
  EXPECT_EQ(sm90_program(1024, 28672, 4096), Program::kHopperSwap192x128);
  // From 65 tokens (decode's swap programs below): M = 128, N = 28672 is 256 tiles of
  // 128 x 112 in two waves against 224 of 128 x 128 (7/8 of the work).
  {
    const cake::Plan p = cake::plan(128, 28672, 4096, 128, Arch::SM90, 132);
    EXPECT_EQ(p.program, Program::kHopper128x112);
    EXPECT_EQ(p.tiles, 256);
    EXPECT_EQ(p.waves, 2);
  }
  EXPECT_EQ(sm90_program(cake::kHopperSwapMaxM, 28672, 4096), Program::kHopperSwap64x64);
  // In place of two regions up to 97% of their work (the second launch's fill and
  // drain): M = 96, N = 37888, K = 3584 was columns 0-25343 as one wave of turned
  // 192-row tiles and the rest as 128 x 112 (counted as 128 x 128); two waves of
  // 128 x 144 instead.
  expect_one_region_plan(OneRegionPlan{96, 37888, 3584, Program::kHopper128x144, 1, 264, 2});
  // Not past 97%; the second region, a problem of its own, may take them (M = 512,
  // N = 28672: columns 25344-28671, 120 tiles of 128 x 112 against 104 of 128 x 128;
  // 128 x 112 on the whole is 100% of the work).
  const cake::Plan head = cake::plan(512, 28672, 4096, 128, Arch::SM90, 132);
  EXPECT_EQ(head.program, Program::kHopperSwap192x128);
  EXPECT_EQ(head.head_n, 25344);
  EXPECT_EQ(cake::plan(512, 28672 - 25344, 4096, 128, Arch::SM90, 132).program, Program::kHopper128x112);
}

// Since versions 60 and 61 the fitted weight tiles include 192 tokens by 112 weight
// rows (fp8_hopper_192x112, three consumer warpgroups) and 128 tokens by 160
// (fp8_hopper_128x160, two, one partial-sum set) under the same limits, the one
// with the least work (the first of equals): where 192 x 128 tiles leave SMs idle
// in their last wave, 7/8 (112) or 5/6 (160) of their work on as many waves.
TEST(PlanSm90, FittedWeightTilesOf192TokensAnd160Rows) {
  for (const OneRegionPlan& c : {
           // one wave: 128 tiles of 192 x 112 against 112 of 192 x 128
           OneRegionPlan{768, 3584, 18944, Program::kHopper192x112, 1, 128, 1},
           OneRegionPlan{384, 7168, 8192, Program::kHopper192x112, 1, 128, 1},
           // two waves: 256 against 224
           OneRegionPlan{192, 28672, 4096, Program::kHopper192x112, 1, 256, 2},
           // in place of three waves of 128 x 112 in pairs at the same work, from K = 8192
           OneRegionPlan{384, 14336, 8192, Program::kHopper192x112, 1, 256, 2},
           // one wave: 128 tiles of 128 x 160 against 120 of 192 x 128 (5/6 of the
           // work) and against 132 of 192 x 112 (20480 elements a tile against 21504)
           // (M = 2048, N = 1280 and M = 3072, N = 768 go to 160-token tiles since
           // versions 66 and 67)
           OneRegionPlan{1024, 2560, 8192, Program::kHopper128x160, 1, 128, 1},
           // two waves
           OneRegionPlan{1024, 5120, 4096, Program::kHopper128x160, 1, 256, 2},
       })
    expect_one_region_plan(c);
  // From kHopperMulticastMinWaves waves on, in CTA pairs sharing the token tile.
  EXPECT_EQ(cake::plan(1536, 5120, 8192, 128, Arch::SM90, 132).program, Program::kHopper128x160);
  EXPECT_EQ(cake::plan(1536, 5120, 8192, 128, Arch::SM90, 132).cluster_n, 2);
  // Not where 128 x 112 tiles leave less work (two waves of them in pairs) ...
  EXPECT_EQ(sm90_program(1792, 1792, 8192), Program::kHopper128x112);
  // ... nor on more waves than the 192 x 128 tiles (M = 1792, N = 3072: three waves
  // of either against two; FittedWeightTiles), nor in the grid's turned plan.
  EXPECT_EQ(sm90_program(1792, 3072, 4096), Program::kHopper192x128);
  EXPECT_EQ(sm90_program(512, 28672, 4096), Program::kHopperSwap192x128);
}

// Version 65: token tiles of 160 on 128 weight rows (fp8_hopper_swap_128x160) in
// place of a plan of one program, unsplit in no more waves, where they leave the
// busiest SM no more K-block work (kHopperTokenTiles160*).
TEST(PlanSm90, TokenTilesOf160) {
  for (const OneRegionPlan& c : {
           // the same work in fewer waves: against 80-token tiles in pairs on two
           // (four) waves, 192 x 112 on two
           OneRegionPlan{320, 7168, 8192, Program::kHopperSwap128x160, 1, 112, 1},
           OneRegionPlan{320, 14336, 8192, Program::kHopperSwap128x160, 1, 224, 2},
           OneRegionPlan{136, 13824, 7168, Program::kHopperSwap128x160, 1, 108, 1},
           // less work in one wave: against 192 x 128 tiles (5/6)
           OneRegionPlan{320, 8192, 1024, Program::kHopperSwap128x160, 1, 128, 1},
           OneRegionPlan{320, 8192, 3584, Program::kHopperSwap128x160, 1, 128, 1},
           OneRegionPlan{160, 28672, 4096, Program::kHopperSwap128x160, 1, 224, 2},
           // on many waves in CTA pairs (along the tokens, sharing the weight tile),
           // against nine of the turned 192 x 128 tiles
           OneRegionPlan{640, 37888, 2048, Program::kHopperSwap128x160, 2, 1184, 9},
           // past 1024 tokens (version 66): against 128 x 160 tiles (the same work in
           // 130 tiles against 128), 192 x 128 in pairs on three waves (5/6)
           OneRegionPlan{2048, 1280, 8192, Program::kHopperSwap128x160, 1, 130, 1},
           OneRegionPlan{2560, 3072, 2048, Program::kHopperSwap128x160, 2, 384, 3},
           // and past 2560 (version 67): against 128 x 160 (120 tiles either way), four
           // waves of 128 x 128 in pairs
           OneRegionPlan{3072, 768, 8192, Program::kHopperSwap128x160, 1, 120, 1},
           OneRegionPlan{3072, 2304, 1024, Program::kHopperSwap128x160, 2, 360, 3},
       })
    expect_one_region_plan(c);
  EXPECT_EQ(cake::plan(640, 37888, 2048, 128, Arch::SM90, 132).cluster_m, 2);
  // Not in more waves at the same work (M = 896, N = 14336, K = 1024: six against
  // five of the turned 192 x 128 tiles, 1.127 of their time) ...
  EXPECT_EQ(sm90_program(896, 14336, 1024), Program::kHopperSwap192x128);
  // ... nor at more work (M = 640, N = 7168, K = 8192: 1.089 of 128 x 144's time;
  // M = 320, N = 28672: four waves in pairs against seven of 80-token pairs, 1.14
  // of their work) ...
  EXPECT_EQ(sm90_program(640, 7168, 8192), Program::kHopper128x144);
  EXPECT_EQ(sm90_program(320, 28672, 4096), Program::kHopperSwap128x80);
  // ... nor split (M = 896, N = 1280: 60 tiles split in two against 120 unsplit of
  // 80 tokens; split plans measured 1.005-1.408 of the unsplit ones), nor in place
  // of two regions.
  EXPECT_EQ(sm90_program(896, 1280, 4096), Program::kHopperSwap128x80);
  EXPECT_EQ(cake::plan(448, 14336, 6144, 128, Arch::SM90, 132).head_m, 192);
}

// Version 68: 128 x 160 tiles on any number of waves up to 90% of the 192-row plan's
// work, from K = 2048 below K = 8192 (kHopperFittedWeightTiles160*).
TEST(PlanSm90, FittedWeightTilesOf160RowsOnManyWavesAtMidK) {
  for (const OneRegionPlan& c : {
           // 5/6 of the work: ten waves of 1260 tiles in pairs against ten of 1050 turned
           // 192 x 128 tiles; three against three of 192 x 128; five in pairs
           OneRegionPlan{896, 28672, 4096, Program::kHopper128x160, 2, 1260, 10},
           OneRegionPlan{768, 10240, 4096, Program::kHopper128x160, 2, 384, 3},
           OneRegionPlan{896, 14336, 2048, Program::kHopper128x160, 2, 630, 5},
           // and where the 160-token tiles then leave less still (seven waves in pairs
           // against five of the turned 192 x 128 and a second region)
           OneRegionPlan{640, 28672, 4096, Program::kHopperSwap128x160, 2, 896, 7},
       })
    expect_one_region_plan(c);
  // Not at short K (M = 896, N = 28672, K = 1024: 1.066 of the turned program's time),
  // nor from K = 8192 (in place of 128 x 112 there: 1.015-1.028), nor above 90% (M =
  // 1024, N = 28672, K = 4096: eleven waves against ten at 0.917 of the work, 1.011).
  EXPECT_EQ(sm90_program(896, 28672, 1024), Program::kHopperSwap192x128);
  EXPECT_EQ(sm90_program(896, 28672, 8192), Program::kHopper128x112);
  EXPECT_EQ(sm90_program(1024, 28672, 4096), Program::kHopperSwap192x128);
}

// Version 69: the 192-row programs on 9..16 waves cut into two regions as a last
// step (kHopperRegionManyWaves*), along either operand as on fewer waves.
TEST(PlanSm90, RegionsOnManyWavesAsALastStep) {
  // M = 1024, N = 28672: 1200 turned tiles (9.09 waves); columns 0-25343 eight waves,
  // the rest two waves of 128 x 112.
  cake::Plan p = cake::plan(1024, 28672, 4096, 128, Arch::SM90, 132);
  EXPECT_EQ(p.program, Program::kHopperSwap192x128);
  EXPECT_EQ(p.head_m, 1024);
  EXPECT_EQ(p.head_n, 25344);
  EXPECT_EQ(p.waves, 8);
  EXPECT_EQ(cake::plan(1024, 28672 - 25344, 4096, 128, Arch::SM90, 132).program, Program::kHopper128x112);
  // M = 2048, N = 14336, K = 8192: across (columns 0-12287); M = 8192, N = 3584: rows
  // 0-7103.
  p = cake::plan(2048, 14336, 8192, 128, Arch::SM90, 132);
  EXPECT_EQ(p.program, Program::kHopper192x128);
  EXPECT_EQ(p.head_n, 12288);
  p = cake::plan(8192, 3584, 4096, 128, Arch::SM90, 132);
  EXPECT_EQ(p.program, Program::kHopper192x128);
  EXPECT_EQ(p.head_m, 7104);
  EXPECT_EQ(p.head_n, 3584);
  // Not at K = 1024 (the cuts measured 1.019-1.025), nor where another rule took the
  // plan from the 192-row program (128 x 160 tiles, 160-token tiles).
  p = cake::plan(8192, 3584, 1024, 128, Arch::SM90, 132);
  EXPECT_EQ(p.head_m, 8192);
  EXPECT_EQ(p.waves, 10);
  EXPECT_EQ(sm90_program(896, 28672, 4096), Program::kHopper128x160);
  EXPECT_EQ(sm90_program(640, 37888, 4096), Program::kHopperSwap128x160);
}

// Weight tiles of 80 rows (kHopperFittedWeightTiles80MaxWaves) only where they make
// one wave: few weight rows at long K, few tokens on N = 10240; since version 44
// also in place of the 128-row token tiles (fitted to the tokens).
TEST(PlanSm90, FittedWeightTilesOf80RowsInOneWave) {
  for (const OneRegionPlan& c : {
           // 128 tiles of 128 x 80 against 60 of 192 x 128 split over CTA pairs (120 SMs);
           // eight / four token tiles at K >= 8192: in pairs sharing the weight tile
           // (version 63)
           OneRegionPlan{1024, 1280, 14336, Program::kHopper128x80, 2, 128, 1},
           OneRegionPlan{512, 2560, 8192, Program::kHopper128x80, 2, 128, 1},
           // 128 against 92 of 128 x 112
           OneRegionPlan{128, 10240, 4096, Program::kHopper128x80, 1, 128, 1},
           // 130 against 96 of 128 x 128 (78% of the work)
           OneRegionPlan{1280, 1024, 4096, Program::kHopper128x80, 1, 130, 1},
           // Since version 44 also in place of the 128-row token tiles: 116 against 108
           // tiles of 128 weight rows x 96 tokens (5/6 of the work; 128 x 144 split in
           // pairs would leave less, but only the 80 rows replace token tiles); 128
           // against 120
           OneRegionPlan{256, 4608, 3584, Program::kHopper128x80, 1, 116, 1},
           OneRegionPlan{512, 2560, 4096, Program::kHopper128x80, 1, 128, 1},
       })
    expect_one_region_plan(c);
  // ... and split over CTA pairs where the token tiles were: 64 tiles of 128 x 80 in
  // 64 pairs against 60 of 128 x 96 in 60.
  for (const auto& [M, N] : {std::pair<int64_t, int64_t>{512, 1280}, {256, 2560}}) {
    const cake::Plan p = cake::plan(M, N, 8192, 128, Arch::SM90, 132);
    EXPECT_EQ(p.program, Program::kHopper128x80);
    EXPECT_EQ(p.tiles, 64);
    EXPECT_EQ(p.split_k, 2);
  }
  // Not on two waves: at 264 tokens 128 x 80 would be 174 tiles.
  EXPECT_EQ(sm90_program(264, 4608, 3584), Program::kHopperSwap128x96);
  // Pairs sharing the weight tile (lying along P) from
  // kHopperWeight80PairsMinTokenTiles token tiles at K >= kHopperWeight80PairsMinK
  // where the pairs are one wave; single CTAs otherwise.
  for (const auto& [M, N, K, paired] : {std::tuple<int64_t, int64_t, int64_t, bool>{1024, 1280, 8192, true},
                                        {800, 1280, 8192, true},
                                        {688, 1536, 8192, true},  // six token tiles
                                        {504, 2552, 8208, true},  // four, tails (GpuShapes)
                                        {1016, 1264, 8208, true},
                                        {256, 4608, 18944, false},  // two
                                        {640, 2048, 8192, false},   // 78 pairs: two waves
                                        {800, 1280, cake::kHopperWeight80PairsMinK - 128, false}}) {
    SCOPED_TRACE(std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(K));
    const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, 132);
    EXPECT_EQ(p.program, Program::kHopper128x80);
    EXPECT_EQ(p.cluster_m, paired ? 2 : 1);
    EXPECT_EQ(p.cluster_n, 1);
    EXPECT_EQ(p.waves, 1);
  }
  // Their tiles walk along Q first from kHopperWeight80AlongQMinK on over three
  // token tiles or more (single or in pairs), or split; on two unsplit, below that K
  // and in the other non-turned programs down 8 token tiles; the turned programs
  // along Q.
  for (const auto& [M, N, K, group] : {std::tuple<int64_t, int64_t, int64_t, int>{512, 2560, 8192, 1},
                                       {288, 3072, 8192, 1},  // three token tiles
                                       {256, 2560, 8192, 1},  // two, split over CTA pairs
                                       {512, 1280, 8192, 1},
                                       {256, 4608, 18944, 8},  // two unsplit
                                       {512, 2560, cake::kHopperWeight80AlongQMinK - 128, 8},
                                       {1024, 1280, 8192, 1}}) {  // paired, sharing the weight tile
    SCOPED_TRACE(std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(K));
    const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, 132);
    EXPECT_EQ(p.program, Program::kHopper128x80);
    EXPECT_EQ(p.raster_group, group);
  }
  EXPECT_EQ(cake::plan(512, 4096, 8192, 128, Arch::SM90, 132).raster_group, 8);   // 128 x 128
  EXPECT_EQ(cake::plan(320, 3584, 18944, 128, Arch::SM90, 132).raster_group, 1);  // turned
  // Since version 45 one wave of them unsplit in place of the 64-row swap programs
  // on two waves or more past decode (there the estimate gives them more work).
  for (const OneRegionPlan& c : {
           // 116 tiles against 249 of 64 weight rows x 64 tokens (56-row narrow tiles)
           OneRegionPlan{192, 4608, 3584, Program::kHopper128x80, 1, 116, 1},
           // 128 against 240 of 64 x 64; 117 against 240
           OneRegionPlan{136, 5120, 4096, Program::kHopper128x80, 1, 128, 1},
           OneRegionPlan{272, 3072, 8192, Program::kHopper128x80, 1, 117, 1},
       })
    expect_one_region_plan(c);
  // Not on one wave of swap tiles (M = 128, N = 4608: 116 tiles of 128 x 40 in
  // swap 64 x 128), nor in decode, nor where 128 x 80 would split K.
  EXPECT_EQ(sm90_program(128, 4608, 3584), Program::kHopperSwap64x128);
  EXPECT_EQ(sm90_program(cake::kHopperSwapMaxM, 10240, 4096), Program::kHopperSwap64x64);  // 3 waves; 128 x 80: 1
  // Not on more waves, where they would take the plan at 80% of its work or less:
  // six waves of 128 x 80 against two regions of 192 x 128 (M = 6144, N = 1280) or
  // two waves of them (M = 2048, N = 3840; M = 1536, N = 5120). (Since version 61
  // three waves of 128 x 160 in pairs take those plans.)
  for (const auto& [M, N, K] : {std::tuple<int64_t, int64_t, int64_t>{6144, 1280, 4096},
                                {2048, 3840, 8192},
                                {1536, 5120, 4096}}) {
    SCOPED_TRACE(std::to_string(M) + " " + std::to_string(N));
    ASSERT_GT(cake::plan_sm90_program(Program::kHopper128x80, M, N, K, 132).waves, 1);
    EXPECT_EQ(cake::plan(M, N, K, 128, Arch::SM90, 132).program, Program::kHopper128x160);
  }
  // Since version 70 also in place of the 128-row swap program split over K, in the
  // same split, from K = kHopperFittedWeightTiles80SplitSwapMinK: 64 tiles of 128 x 80
  // on 128 SMs against 60 of 128 weight rows x 64 tokens on 120 (N = 2560), 58 on 116
  // against 54 on 108 (N = 2304).
  const int64_t min_k = cake::kHopperFittedWeightTiles80SplitSwapMinK;
  for (const auto& [M, N, K, tiles] : {std::tuple<int64_t, int64_t, int64_t, int64_t>{192, 2560, 8192, 64},
                                       {136, 2560, 16384, 64},
                                       {160, 2304, min_k, 58},
                                       {192, 2304, 14336, 58}}) {
    SCOPED_TRACE(std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(K));
    const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, 132);
    EXPECT_EQ(p.program, Program::kHopper128x80);
    EXPECT_EQ(p.split_k, 2);
    EXPECT_EQ(p.tiles, tiles);
    EXPECT_EQ(p.waves, 1);
  }
  // Not below that K (level at K = 4096, slower at 2048), nor in decode, nor where
  // 128 x 80 would run unsplit on fewer SMs (78 SMs, N = 1536: 40 tiles of 128 x 80
  // against 36 of 128 weight rows x 64 tokens split over 72).
  for (const auto& [M, N, K, sms] : {std::tuple<int64_t, int64_t, int64_t, int>{192, 2560, min_k - 128, 132},
                                     {160, 2304, 2048, 132},
                                     {137, 1536, 8192, 78}}) {
    SCOPED_TRACE(std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(K));
    const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, sms);
    EXPECT_EQ(p.program, Program::kHopperSwap128x64);
    EXPECT_EQ(p.split_k, 2);
  }
  EXPECT_EQ(cake::plan(137, 1536, 8192, 128, Arch::SM90, 78).grid, 72);
  EXPECT_EQ(cake::plan_sm90_program(Program::kHopper128x80, 137, 1536, 8192, 78).grid, 40);
  EXPECT_NE(sm90_program(cake::kHopperSwapMaxM, 2560, 8192), Program::kHopper128x80);
}

// The benchmark's default grid, on which the performance bars are stated: its
// plans pinned (version 33's, unchanged through version 38; version 39 changes
// M = 128, N = 28672 and the second region of M = 512, N = 28672), so that a plan
// change that moves a grid shape, or the second region of one, is deliberate and
// measured again. r does not change the plan.
TEST(PlanSm90, GridPlansAsBenchmarked) {
  using P = Program;
  struct Case {
    int64_t M, N, K;
    Program program;
    int tile_m, tile_n, split, cluster;
    int64_t head_m, head_n;
  };
  const Case cases[] = {
      {1, 4096, 4096, P::kHopperSwap64x16, 16, 64, 1, 1, 1, 4096},
      {1, 6144, 4096, P::kHopperSwap64x16, 16, 48, 1, 1, 1, 6144},
      {1, 28672, 4096, P::kHopperSwap64x16, 16, 56, 1, 1, 1, 28672},
      {1, 4096, 14336, P::kHopperSwap64x16, 16, 64, 1, 1, 1, 4096},
      {1, 8192, 8192, P::kHopperSwap64x16, 16, 64, 1, 1, 1, 8192},
      {16, 4096, 4096, P::kHopperSwap64x16, 16, 64, 1, 1, 16, 4096},
      {16, 6144, 4096, P::kHopperSwap64x16, 16, 48, 1, 1, 16, 6144},
      {16, 28672, 4096, P::kHopperSwap64x16, 16, 56, 1, 1, 16, 28672},
      {16, 4096, 14336, P::kHopperSwap64x16, 16, 64, 1, 1, 16, 4096},
      {16, 8192, 8192, P::kHopperSwap64x16, 16, 64, 1, 1, 16, 8192},
      {64, 4096, 4096, P::kHopperSwap64x64, 64, 64, 1, 1, 64, 4096},
      {64, 6144, 4096, P::kHopperSwap64x64, 64, 48, 1, 1, 64, 6144},
      {64, 28672, 4096, P::kHopperSwap64x64, 64, 56, 1, 1, 64, 28672},
      {64, 4096, 14336, P::kHopperSwap64x32, 32, 64, 1, 2, 64, 4096},
      {64, 8192, 8192, P::kHopperSwap64x64, 64, 64, 1, 1, 64, 8192},
      {128, 4096, 4096, P::kHopperSwap64x64, 64, 64, 1, 2, 128, 4096},
      {128, 6144, 4096, P::kHopper64x96, 64, 96, 1, 2, 128, 6144},  // version 40
      {128, 28672, 4096, P::kHopper128x112, 128, 112, 1, 1, 128, 28672},  // version 39
      {128, 4096, 14336, P::kHopperSwap64x128, 128, 64, 2, 1, 128, 4096},
      {128, 8192, 8192, P::kHopperSwap64x128, 128, 64, 1, 1, 128, 8192},
      {512, 4096, 4096, P::kHopper128x128, 128, 128, 1, 1, 512, 4096},
      {512, 6144, 4096, P::kHopperSwap192x128, 128, 192, 1, 1, 512, 6144},
      {512, 28672, 4096, P::kHopperSwap192x128, 128, 192, 1, 2, 512, 25344},
      {512, 4096, 14336, P::kHopper128x128, 128, 128, 1, 1, 512, 4096},
      {512, 8192, 8192, P::kHopper128x128, 128, 128, 1, 1, 512, 8192},
      {2048, 4096, 4096, P::kHopper256x128, 256, 128, 1, 1, 2048, 4096},  // version 78
      {2048, 6144, 4096, P::kHopper192x128, 192, 128, 1, 2, 2048, 6144},
      {2048, 28672, 4096, P::kHopper192x128, 192, 128, 1, 2, 2048, 28672},
      {2048, 4096, 14336, P::kHopper256x128, 256, 128, 1, 1, 2048, 4096},  // version 78
      {2048, 8192, 8192, P::kHopper192x128, 192, 128, 1, 2, 1536, 8192},
      {8192, 4096, 4096, P::kHopper192x128, 192, 128, 1, 2, 8192, 4096},
      {8192, 6144, 4096, P::kHopper192x128, 192, 128, 1, 2, 8192, 6144},
      {8192, 28672, 4096, P::kHopper192x128, 192, 128, 1, 2, 8192, 28672},
      {8192, 4096, 14336, P::kHopper192x128, 192, 128, 1, 2, 8192, 4096},
      {8192, 8192, 8192, P::kHopper192x128, 192, 128, 1, 2, 8192, 8192},
  };
  for (const Case& c : cases)
    for (int64_t r : {32, 64, 128}) {
      const cake::Plan p = cake::plan(c.M, c.N, c.K, r, Arch::SM90, 132);
      SCOPED_TRACE(std::to_string(c.M) + " " + std::to_string(c.N) + " " + std::to_string(c.K) + " r " +
                   std::to_string(r));
      EXPECT_EQ(p.program, c.program);
      EXPECT_EQ(p.tile_m, c.tile_m);
      EXPECT_EQ(p.tile_n, c.tile_n);
      EXPECT_EQ(p.split_k, c.split);
      EXPECT_EQ(p.cluster_m * p.cluster_n, c.cluster);
      EXPECT_EQ(p.head_m, c.head_m);
      EXPECT_EQ(p.head_n, c.head_n);
      // A second region is planned as a problem of its own: 128 x 128 tiles on every one of the grid's
      // but M = 512, N = 28672, whose 3328 columns take 128 x 112 (version 39).
      if (p.head_m < c.M || p.head_n < c.N) {
        const int64_t rest_m = p.head_m < c.M ? c.M - p.head_m : c.M, rest_n = p.head_m < c.M ? c.N : c.N - p.head_n;
        EXPECT_EQ(cake::plan(rest_m, rest_n, c.K, r, Arch::SM90, 132).program,
                  c.N == 28672 && c.M == 512 ? P::kHopper128x112 : P::kHopper128x128);
      }
    }
}

}  // namespace
