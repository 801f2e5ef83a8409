// What every plan must hold for the launcher and the programs, on every shape:
// a sweep over edge and serving shapes on several device sizes (H100 / H200
// SXM, H100 PCIe, MIG-sized slices, one SM). test_plan.cpp pins which program is
// chosen where; this file checks that whatever is chosen can run, and that the
// regions the launcher walks cover out exactly once.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cake/plan.h"
#include "plan/rules.h"
#include "sm90/config.h"
#include "sm90/programs.h"

namespace {

using cake::Arch;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// One SM90 region plan of an m x n problem (the head it covers may be smaller),
// planned for a board of dram_gbps (0: unknown, planned as for the H200).
void expect_runnable_sm90(const cake::Plan& p, int64_t m, int64_t n, int64_t K, int sms, int dram_gbps) {
  ASSERT_EQ(p.arch, Arch::SM90);
  // The region: all of the rows or all of the columns, cut on a 16-byte column.
  ASSERT_GE(p.head_m, 1);
  ASSERT_GE(p.head_n, 1);
  ASSERT_LE(p.head_m, m);
  ASSERT_LE(p.head_n, n);
  ASSERT_TRUE(p.head_m == m || p.head_n == n) << "a region cuts rows or columns, not both";
  if (p.head_n < n) EXPECT_EQ(p.head_n % 8, 0) << "a column cut keeps the rest's pointers 16-byte aligned";

  const bool known = cake::sm90::with_shape(p.program, [&](auto shape) {
    using Shape = decltype(shape);
    EXPECT_EQ(p.swap_ab, Shape::kSwapAB);
    // Tiles: the program's, but for narrow weight tiles (multiples of 8 rows) in
    // the programs that take them.
    const int tile_p = Shape::kSwapAB ? p.tile_n : p.tile_m;
    EXPECT_EQ(Shape::kSwapAB ? p.tile_m : p.tile_n, Shape::kBlockQ);
    if (tile_p != Shape::kBlockP) {
      EXPECT_TRUE(Shape::kNarrowTiles) << "narrow P tiles in a program that has none";
      EXPECT_EQ(tile_p % 8, 0);
      EXPECT_GE(tile_p, 8);
      EXPECT_LT(tile_p, Shape::kBlockP);
    }
    // Split-K: a power of two the program's ring can land, each CTA a K block.
    EXPECT_TRUE(p.split_k == 1 || p.split_k == 2 || p.split_k == 4 || p.split_k == 8);
    EXPECT_LE(p.split_k, Shape::kMaxSplit);
    if (Shape::kPasses > 1) EXPECT_EQ(p.split_k, 1) << "programs of several passes have no split-K hand-over";
    EXPECT_LE(p.split_k, ceil_div(K, cake::sm90::kStageK));
    // Multicast pairs: without split-K, sharing whole tiles.
    const int pairs = p.cluster_m * p.cluster_n;
    EXPECT_TRUE(pairs == 1 || pairs == 2);
    if (pairs == 2) {
      EXPECT_EQ(p.split_k, 1) << "pairs and split-K do not combine";
      // A pair lying along Q (along N, with swap along M) shares its P tile; each
      // program's pairs lie its own way (config.h), 128 x 112's either way; 128 x 128
      // is built both ways, but the plan lays its pairs along P only on slow DRAM.
      const bool along_q = (Shape::kSwapAB ? p.cluster_m : p.cluster_n) == 2;
      if (along_q) EXPECT_EQ(tile_p, Shape::kBlockP) << "pairs share whole P tiles";
      if (!Shape::kPairsBothWays) EXPECT_EQ(along_q, !Shape::kPairsShareQ) << "pairs lie the program's way";
      if (Shape::kPairsBothWays && Shape::kBlockQ == 128 && dram_gbps == 0)
        EXPECT_TRUE(along_q) << "128 x 128 pairs along P: on slow DRAM or forced only";
    }
    // The launch: clusters divide the grid, one CTA per SM, enough rounds for all tiles.
    EXPECT_GE(p.grid, 1);
    EXPECT_LE(p.grid, sms);
    EXPECT_EQ(p.grid % (p.split_k * pairs), 0);
    const int64_t at_once = p.grid / p.split_k;  // tiles worked on together
    EXPECT_GE(p.waves * at_once, p.tiles);
    if (pairs == 1) EXPECT_EQ(p.waves, ceil_div(p.tiles, at_once));
  });
  ASSERT_TRUE(known) << cake::program_name(p.program) << " is not a Hopper program";
  EXPECT_EQ(p.tiles_m, ceil_div(p.head_m, p.tile_m));
  EXPECT_EQ(p.tiles_n, ceil_div(p.head_n, p.tile_n));
  EXPECT_EQ(p.tiles, p.tiles_m * p.tiles_n);
  EXPECT_EQ(p.tile_k, cake::sm90::kStageK);
  EXPECT_EQ(p.promotion_k,
            K >= cake::kHopperLongPromotionMinK ? cake::sm90::kPromotionLongK : cake::sm90::kPromotionShortK);
  EXPECT_STREQ(p.scheduler, "static_persistent");
}

// The regions the launcher runs (src/sm90/launch.cpp): the plan's head, then the
// rest planned as a problem of its own, until out is covered. From 16 SMs on that
// is at most two regions. Below, the rest may cut again (3 SMs: up to five
// regions of 192 x 128 tiles, each a whole number of waves): correct, and too small
// a limit to weigh a rule against.
void expect_regions_cover(int64_t M, int64_t N, int64_t K, int sms, int dram_gbps = 0) {
  const int max_regions = sms >= 16 ? 2 : 8;
  int64_t m = M, n = N, covered = 0;
  for (int region = 0; m > 0 && n > 0; ++region) {
    ASSERT_LT(region, max_regions) << "more regions than expected on " << sms << " SMs";
    const cake::Plan p = cake::plan(m, n, K, 128, Arch::SM90, sms, dram_gbps);
    expect_runnable_sm90(p, m, n, K, sms, dram_gbps);
    if (testing::Test::HasFatalFailure()) return;
    covered += p.head_m * p.head_n;
    if (p.head_m < m) m -= p.head_m;
    else if (p.head_n < n) n -= p.head_n;
    else m = n = 0;
  }
  EXPECT_EQ(covered, M * N);
}

const std::vector<int64_t> kMs = {1,   2,   8,   16,  17,  31,  32,   33,   48,   63,   64,   65,   96,
                                  127, 128, 129, 136, 192, 193, 256,  300,  384,  511,  512,  513,  640,
                                  768, 1000, 1024, 1536, 2048, 2049, 3000, 4096, 8192};
const std::vector<int64_t> kNs = {8,    16,   40,   64,   72,   120,  128,   136,   1024,  1280,
                                  2560, 3584, 4096, 4104, 6144, 7168, 14336, 28672, 37888};
const std::vector<int64_t> kKs = {16, 48, 128, 144, 1024, 3072, 3584, 4096, 8192, 16400, 65536};

TEST(PlanInvariants, Sm90EveryShapeRunsAndIsCovered) {
  // H100 / H200 SXM, H100 PCIe, H20, MIG-sized slices, and the odd limits that
  // cake::set_num_sms allows down to one SM.
  for (int sms : {132, 114, 113, 78, 66, 57, 16, 3, 2, 1})
    for (int64_t M : kMs)
      for (int64_t N : kNs)
        for (int64_t K : kKs) {
          SCOPED_TRACE(std::to_string(M) + " x " + std::to_string(N) + " x " + std::to_string(K) + " on " +
                       std::to_string(sms) + " SMs");
          expect_regions_cover(M, N, K, sms);
          if (HasFatalFailure() || HasNonfatalFailure()) return;  // one shape's report, not thousands
        }
}

// Every program forced (cake_bench --program, the GPU tests' forced plans) on the
// sweep's M by a few N and K: whatever plan_sm90_program makes of it can run (a
// 256 x 128 plan at M <= 64 was split over CTA pairs, which its two passes per
// warpgroup cannot hand over).
TEST(PlanInvariants, Sm90EveryProgramForcedRuns) {
  for (int sms : {132, 16})
    for (cake::Program program : cake::sm90::kPrograms)
      for (int64_t M : kMs)
        for (int64_t N : {8, 136, 4096})
          for (int64_t K : {16, 4096, 16400}) {
            SCOPED_TRACE(std::string(cake::program_name(program)) + " " + std::to_string(M) + " x " +
                         std::to_string(N) + " x " + std::to_string(K) + " on " + std::to_string(sms) + " SMs");
            expect_runnable_sm90(cake::plan_sm90_program(program, M, N, K, sms), M, N, K, sms, 0);
            if (HasFatalFailure() || HasNonfatalFailure()) return;
          }
}

// Everything a plan says but its CTA pairs (which the DRAM bandwidth may change).
std::string all_but_pairs(const cake::Plan& p) {
  return std::string(cake::program_name(p.program)) + " " + std::to_string(p.tile_m) + "x" + std::to_string(p.tile_n) +
         " tiles " + std::to_string(p.tiles_m) + "x" + std::to_string(p.tiles_n) + " split " +
         std::to_string(p.split_k) + " promote " + std::to_string(p.promotion_k) + " raster " + p.raster +
         std::to_string(p.raster_group) + " head " + std::to_string(p.head_m) + "x" + std::to_string(p.head_n);
}
std::string all_of(const cake::Plan& p) {
  return all_but_pairs(p) + " pairs " + std::to_string(p.cluster_m) + "x" + std::to_string(p.cluster_n) + " grid " +
         std::to_string(p.grid) + " workers " + std::to_string(p.workers) + " waves " + std::to_string(p.waves);
}

// The board's DRAM bandwidth: above kHopperSlowDramMaxGbps (an H200) the plan is the
// one for unknown bandwidth (0); at or below it (an H100 SXM) either 128 x 128 tiles
// split over K up to kHopperSlowDramUnsplitSwapMaxK become a 128 x 64 swap program,
// unsplit in one wave over the same region; or two waves of 128 x 128 tiles over the
// whole problem (not in pairs along M) from kHopperSlowDram256RowTilesMinK, or of single
// 128 x 112 CTAs from kHopperSlowDram256RowTilesOver112MinK (K not a multiple of
// kHopperSlowDram256RowTilesOver112KeepK), become one wave of single 256 x 128 CTAs; or
// three or more waves of 128 x 112 pairs from kHopperSlowDramWideTilesMinK become fewer
// waves of 128 x 160 pairs; or only CTA pairs differ, single CTAs becoming pairs in as
// many waves (one or two along M, two along N); every region still runs and covers out.
TEST(PlanInvariants, Sm90DramBandwidthChangesOnlySplitsTilesAndPairs) {
  int along_m = 0, along_n = 0, unsplit = 0, rows256 = 0, wide = 0;
  for (int sms : {132, 114, 78})
    for (int64_t M : kMs)
      for (int64_t N : kNs)
        for (int64_t K : kKs) {
          SCOPED_TRACE(std::to_string(M) + " x " + std::to_string(N) + " x " + std::to_string(K) + " on " +
                       std::to_string(sms) + " SMs");
          const cake::Plan unknown = cake::plan(M, N, K, 128, Arch::SM90, sms);
          EXPECT_EQ(all_of(cake::plan(M, N, K, 128, Arch::SM90, sms, cake::kHopperSlowDramMaxGbps + 1)),
                    all_of(unknown));
          const cake::Plan slow = cake::plan(M, N, K, 128, Arch::SM90, sms, cake::kHopperSlowDramMaxGbps);
          if (slow.program == cake::Program::kHopper256x128 && unknown.program != slow.program) {
            ++rows256;
            const bool over112 = unknown.program == cake::Program::kHopper128x112;
            EXPECT_TRUE(unknown.program == cake::Program::kHopper128x128 || over112)
                << cake::program_name(unknown.program);
            EXPECT_EQ(unknown.waves, 2);
            EXPECT_EQ(unknown.split_k, 1);
            EXPECT_EQ(unknown.cluster_m, 1);
            if (over112) EXPECT_EQ(unknown.cluster_n, 1);
            EXPECT_EQ(unknown.head_m, M);
            EXPECT_EQ(unknown.head_n, N);
            EXPECT_GE(K, over112 ? cake::kHopperSlowDram256RowTilesOver112MinK : cake::kHopperSlowDram256RowTilesMinK);
            if (over112) EXPECT_NE(K % cake::kHopperSlowDram256RowTilesOver112KeepK, 0);
            EXPECT_EQ(slow.waves, 1);
            EXPECT_EQ(slow.split_k, 1);
            EXPECT_EQ(slow.cluster_m * slow.cluster_n, 1);
            EXPECT_EQ(slow.head_m, M);
            EXPECT_EQ(slow.head_n, N);
          } else if (slow.program == cake::Program::kHopper128x160 && unknown.program != slow.program) {
            ++wide;
            EXPECT_EQ(unknown.program, cake::Program::kHopper128x112);
            EXPECT_EQ(unknown.cluster_n, 2);
            EXPECT_EQ(slow.cluster_n, 2);
            EXPECT_GE(unknown.waves, 3);
            EXPECT_LT(slow.waves, unknown.waves);
            EXPECT_EQ(slow.split_k, 1);
            EXPECT_EQ(unknown.split_k, 1);
            EXPECT_GE(K, cake::kHopperSlowDramWideTilesMinK);
            EXPECT_EQ(unknown.head_m, M);
            EXPECT_EQ(unknown.head_n, N);
            EXPECT_EQ(slow.head_m, M);
            EXPECT_EQ(slow.head_n, N);
          } else if (all_but_pairs(slow) != all_but_pairs(unknown)) {
            ++unsplit;
            EXPECT_EQ(unknown.program, cake::Program::kHopper128x128);
            EXPECT_GT(unknown.split_k, 1);
            EXPECT_LE(K, cake::kHopperSlowDramUnsplitSwapMaxK);
            EXPECT_TRUE(slow.program == cake::Program::kHopperSwap128x64 ||
                        slow.program == cake::Program::kHopperSwap64x128)
                << cake::program_name(slow.program);
            EXPECT_EQ(slow.split_k, 1);
            EXPECT_EQ(slow.waves, 1);
            EXPECT_EQ(slow.cluster_m * slow.cluster_n, 1);
            EXPECT_EQ(slow.head_m, unknown.head_m);
            EXPECT_EQ(slow.head_n, unknown.head_n);
          } else if (all_of(slow) != all_of(unknown)) {
            (slow.cluster_m == 2 ? along_m : along_n) += 1;
            EXPECT_EQ(unknown.cluster_m * unknown.cluster_n, 1);
            EXPECT_EQ(slow.cluster_m * slow.cluster_n, 2);
            EXPECT_EQ(slow.waves, unknown.waves);
            EXPECT_TRUE(slow.cluster_m == 2 ? unknown.waves <= 2 : unknown.waves == 2) << unknown.waves;
          }
          expect_regions_cover(M, N, K, sms, cake::kHopperSlowDramMaxGbps);
          if (HasFatalFailure() || HasNonfatalFailure()) return;
        }
  EXPECT_GT(along_m, 0) << "the sweep reaches no shape the slower board pairs along M";
  EXPECT_GT(along_n, 0) << "the sweep reaches no shape the slower board pairs along N";
  EXPECT_GT(unsplit, 0) << "the sweep reaches no split the slower board gives to a swap program";
  EXPECT_GT(rows256, 0) << "the sweep reaches no two waves of 128 x 128 the slower board gives to 256 x 128 tiles";
  EXPECT_GT(wide, 0) << "the sweep reaches no waves of 128 x 112 pairs the slower board gives to 128 x 160 pairs";
}

// 256 x 128 tiles (kHopper256RowTiles*), on any board: one region, single CTAs, unsplit,
// in at most kHopper256RowTilesMaxWaves waves, on more than kHopperFewSms SMs.
TEST(PlanInvariants, Sm90RowTilesOf256AreOneRegionOfSingleCtas) {
  int tiles256 = 0;
  for (int sms : {132, 114, 78})
    for (int dram : {0, cake::kHopperSlowDramMaxGbps})
      for (int64_t M : kMs)
        for (int64_t N : kNs)
          for (int64_t K : kKs) {
            const cake::Plan p = cake::plan(M, N, K, 128, Arch::SM90, sms, dram);
            if (p.program != cake::Program::kHopper256x128) continue;
            SCOPED_TRACE(std::to_string(M) + " x " + std::to_string(N) + " x " + std::to_string(K) + " on " +
                         std::to_string(sms) + " SMs");
            ++tiles256;
            EXPECT_GT(sms, cake::kHopperFewSms);
            EXPECT_EQ(p.head_m, M);
            EXPECT_EQ(p.head_n, N);
            EXPECT_LE(p.waves, cake::kHopper256RowTilesMaxWaves);
            EXPECT_EQ(p.cluster_m * p.cluster_n, 1);
            EXPECT_EQ(p.split_k, 1);
            if (HasFailure()) return;
          }
  EXPECT_GT(tiles256, 0) << "the sweep reaches no shape planned on 256 x 128 tiles";
}

TEST(PlanInvariants, BlackwellEveryShapeFillsPairs) {
  for (Arch arch : {Arch::SM100, Arch::SM103})
    for (int sms : {148, 132, 2})
      for (int64_t M : kMs)
        for (int64_t N : kNs)
          for (int64_t K : {128, 4096, 65536}) {
            SCOPED_TRACE(std::to_string(M) + " x " + std::to_string(N) + " x " + std::to_string(K));
            const cake::Plan p = cake::plan(M, N, K, 128, arch, sms);
            EXPECT_EQ(p.arch, arch);
            EXPECT_EQ(p.cluster_m, 2);
            EXPECT_EQ(p.grid % 2, 0);
            EXPECT_GE(p.grid, 2);
            EXPECT_LE(p.grid, sms);
            EXPECT_EQ(p.tiles, ceil_div(M, p.tile_m) * ceil_div(N, p.tile_n));
            EXPECT_GE(p.waves * (p.grid / 2), p.tiles);
            EXPECT_EQ(p.head_m, M);
            EXPECT_EQ(p.head_n, N);
            if (HasNonfatalFailure()) return;
          }
}

}  // namespace
