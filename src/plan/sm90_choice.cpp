// Which Hopper program, on which tiles, and whether in two regions: the plan of a
// problem by its shape (plan_sm90_shape), then 256 x 128 tiles in place of some
// two-region plans (plan_sm90_256_row_tiles), then by its board's DRAM (unsplit swap
// programs, pairings, 256 x 128 tiles, 128 x 160 pairs: plan_sm90_board).
// Each step compares estimates of the busiest SM's work under the candidates' plans
// (sm90_program.cpp) against thresholds measured on the H200 (rules.h).
#include "plan/sm90.h"

#include <algorithm>

#include "plan/grid.h"
#include "plan/rules.h"
#include "sm90/config.h"
#include "sm90/programs.h"

namespace cake::planner {
namespace {

// Output elements on the busiest SM when tile_m x tile_n tiles are dealt to
// num_sms persistent CTAs: whole waves of tiles.
int64_t busiest_sm_work(int64_t tile_m, int64_t tile_n, int64_t M, int64_t N, int num_sms) {
  return ceil_div(ceil_div(M, tile_m) * ceil_div(N, tile_n), num_sms) * tile_m * tile_n;
}

// K blocks times output elements on the busiest SM under a plan (with its split).
int64_t busiest_sm_k_work(const Plan& p, int64_t K) {
  return p.waves * ceil_div(ceil_div(K, sm90::kStageK), p.split_k) * p.tile_m * p.tile_n;
}

// Whether work is at most percent % of base (the form of every ...MaxWorkPercent and
// ...MaxRowsPercent threshold in rules.h).
bool at_most_percent(int64_t work, int64_t base, int64_t percent) { return work * 100 <= base * percent; }

// Tiles that fill more than half the SMs in one wave.
bool one_full_wave(int64_t tiles, int num_sms) { return tiles * 2 > num_sms && tiles <= num_sms; }

// SM90: small M is decode-like and weight-bound: swap A and B so that the
// weights fill wgmma's 64-row side and the few tokens its N side.
//  - Up to 64 tokens: 64-row weight tiles, so that most SMs stream weights (H200,
//    2026-11-30: M = 1, N = 4096, K = 4096: 8.6 us against 10.0 with 128-row
//    tiles). On the shapes worked out, 128-row tiles with their split leave the
//    busiest SM as much work or more, and where equal they measured no faster.
//    Up to 16 tokens the tiles are 16 tokens wide: each ring stage holds 8 KiB
//    of weights and 2 KiB of tokens instead of 8 KiB of tokens, so twice the
//    weight bytes stay in flight per SM (22 stages against 13); up to 32 tokens,
//    32 wide (18 stages of 8 + 4 KiB); 33..64 tokens at long K as two token tiles
//    of 32 in multicast pairs where those fill the SMs
//    (kHopperHalfTokenTilePairsMinK).
//  - Up to 128 tokens on at most 8192 weight rows: 64-row weight tiles 128 tokens
//    wide, each weight tile read once (M = 128, N = 6144: 13.2 against 15.7 us
//    with 128 x 128; at N = 28672 the 128-row programs are as fast or faster: 39.9
//    against 40.7 us with the two-warpgroup 64 x 128 program); at short K, where
//    64 x 64 tiles fill the SMs in one wave, those instead: no split-K hand-over
//    (kHopperTokenTilesMaxK); up to kHopperTokenTilePairsMaxK where they run in
//    multicast pairs (hopper_multicast). From kHopperWeightTilePairsMinK, tiles of
//    64 tokens x 96 weight rows in pairs sharing the weight tile where those pairs
//    are one wave on most SMs (kHopperWeightTilePairsMinFillPercent).
//  - Otherwise M <= 192 on N <= 4096: from K = 4096 64-row weight tiles 128 tokens
//    wide (kHopperSwapWideTokenTilesMinK); below, 128-row weight tiles, 64 tokens,
//    or tiles of 64 tokens x 96 weight rows (the weights on wgmma's N side) where
//    those are one wave on more SMs than that plan (with its split) uses.
// From M = 4096 the three-consumer 192 x 128 program, always (H200, 2026-11-30,
// M = 8192: 2-6% faster than the two-set 128 x 128 program).
// Below that, 128 x 128 tiles unless the three-consumer program on 192-row tiles
// (along M, or turned along N) leaves the busiest SM about as much work or less
// (kHopperWideTileMaxWorkPercent; kHopperWideTileMaxWorkPercentLongPromotion where
// the plan promotes every 128 K): fewer waves of larger tiles, e.g. M = 512,
// N = 6144 is 128 tiles of 192 weight rows x 128 tokens, one wave, instead of 192
// tiles of 128 x 128 (H200, 2026-11-30: 24.1 against 32.0 us).
Program choose_sm90_by_shape(int64_t M, int64_t N, int64_t K, int num_sms) {
  if (M <= kHopperSwapTokensMaxM) return Program::kHopperSwap64x16;
  if (M <= kHopperSwapTokens32MaxM) return Program::kHopperSwap64x32;
  if (M <= kHopperSwapMaxM) {
    const bool pairs = K >= kHopperHalfTokenTilePairsMinK &&
                       plan_sm90_program(Program::kHopperSwap64x32, M, N, K, num_sms).cluster_m == 2;
    return pairs ? Program::kHopperSwap64x32 : Program::kHopperSwap64x64;
  }
  if (N <= kHopperSwapNarrowMaxN && M <= kHopperSwapNarrowMaxM) {
    if (plan_sm90_program(Program::kHopper64x96, M, N, K, num_sms).cluster_m == 2) return Program::kHopper64x96;
    const bool token_tiles =
        one_full_wave(ceil_div(N, 64) * ceil_div(M, 64), num_sms) &&
        (K <= kHopperTokenTilesMaxK ||
         (K <= kHopperTokenTilePairsMaxK &&
          plan_sm90_program(Program::kHopperSwap64x64, M, N, K, num_sms).cluster_m == 2));
    return token_tiles ? Program::kHopperSwap64x64 : Program::kHopperSwap64x128;
  }
  if (M <= kHopperSwapWideMaxM && N <= kHopperSwapWideMaxN) {
    if (K >= kHopperSwapWideTokenTilesMinK &&
        plan_sm90_program(Program::kHopperSwap64x128, M, N, K, num_sms).tile_n >= kHopperSwapWideTokenTilesMinRows)
      return Program::kHopperSwap64x128;
    const int64_t tiles = ceil_div(M, 64) * ceil_div(N, 96);
    const bool more_ctas = tiles <= num_sms && tiles > plan_sm90_program(Program::kHopperSwap128x64, M, N, K, num_sms).grid;
    return more_ctas ? Program::kHopper64x96 : Program::kHopperSwap128x64;
  }
  if (M >= kHopperWideTileMinM) return Program::kHopper192x128;
  const int64_t square = busiest_sm_work(128, 128, M, N, num_sms);
  const int64_t tall = busiest_sm_work(192, 128, M, N, num_sms);    // fp8_hopper_192x128
  const int64_t turned = busiest_sm_work(128, 192, M, N, num_sms);  // fp8_hopper_swap_192x128
  const int64_t max_percent = hopper_promotion_k(K) == sm90::kPromotionLongK
                                  ? kHopperWideTileMaxWorkPercentLongPromotion
                                  : kHopperWideTileMaxWorkPercent;
  if (!at_most_percent(std::min(tall, turned), square, max_percent)) return Program::kHopper128x128;
  return tall <= turned ? Program::kHopper192x128 : Program::kHopperSwap192x128;
}

// Weight tiles fitted to the weights (kHopperFittedWeightTiles*): in place of a
// plan of the 128 x 128 or 192-row programs whose busiest SM has `work` K-block
// work (both regions' where it has two), 128 tokens by 112, 144, 80 or 160
// weight rows or 192 tokens by 112, whichever leaves the least (the first of
// equals), when that is at most ...MaxWorkPercent of it
// in place of two regions or of one program on at most ...MaxWaves waves in no
// more waves, or at most `many_waves_percent` of it in any number of waves
// (...ManyWavesMaxWorkPercent, or from ...LongK, once no cut has taken the plan,
// ...LongKMaxWorkPercent);
// 80 rows only where they make one wave (kHopperFittedWeightTiles80MaxWaves), and
// those alone also in place of the 128-row token tiles fitted to the tokens, and,
// past decode, of the 64-row swap programs on more waves (unsplit in one wave) and
// of the 128-row swap program split over K from ...80SplitSwapMinK (in the same
// split, in one wave on as many SMs or more).
Program fitted_weight_tiles(const Plan& chosen, int64_t work, bool regions, int64_t many_waves_percent, int64_t M,
                            int64_t N, int64_t K, int num_sms) {
  const bool wide = chosen.program == Program::kHopper128x128 || chosen.program == Program::kHopper192x128 ||
                    chosen.program == Program::kHopperSwap192x128;
  const bool token_tiles =
      chosen.program == Program::kHopperSwap128x80 || chosen.program == Program::kHopperSwap128x96;
  const bool swap128 = chosen.program == Program::kHopperSwap128x64;
  if (chosen.program == Program::kHopperSwap64x64 || chosen.program == Program::kHopperSwap64x128 || swap128) {
    // Past decode, one wave of 128 x 80 tiles in place of the 64-row swap programs on
    // more than one wave (unsplit), and of the 128-row one split over K at long K (in
    // the same split, on as many SMs or more), though the estimate gives the busiest
    // SM more K-block work (it does not weigh the smaller tiles' lower speed per
    // element; measured in rules.h, after kHopperFittedWeightTiles80MaxWaves).
    if (M <= kHopperSwapMaxM) return chosen.program;
    const Plan q = plan_sm90_program(Program::kHopper128x80, M, N, K, num_sms);
    const bool more_waves = !swap128 && chosen.waves >= 2 && q.split_k == 1;
    const bool split = swap128 && chosen.split_k > 1 && K >= kHopperFittedWeightTiles80SplitSwapMinK &&
                       q.split_k == chosen.split_k && q.grid >= chosen.grid;
    return q.waves <= kHopperFittedWeightTiles80MaxWaves && (more_waves || split) ? Program::kHopper128x80
                                                                                 : chosen.program;
  }
  if (!wide && !token_tiles) return chosen.program;
  Program best = chosen.program;
  int64_t least = work;
  // 128 x 160 tiles take more waves at mid K (kHopperFittedWeightTiles160*).
  const bool mid_k = K >= kHopperFittedWeightTiles160MinK && K < kHopperFittedWeightTilesLongK;
  for (Program fitted :
       {Program::kHopper128x112, Program::kHopper128x144, Program::kHopper128x80, Program::kHopper192x112,
        Program::kHopper128x160}) {
    const bool rows80 = fitted == Program::kHopper128x80;
    if (token_tiles && !rows80) continue;
    const Plan q = plan_sm90_program(fitted, M, N, K, num_sms);
    if (rows80 && q.waves > kHopperFittedWeightTiles80MaxWaves) continue;
    const int64_t w = busiest_sm_k_work(q, K);
    const bool few_waves = chosen.waves <= kHopperFittedWeightTilesMaxWaves && q.waves <= chosen.waves;
    const int64_t many_waves = fitted == Program::kHopper128x160 && mid_k
                                   ? std::max(many_waves_percent, kHopperFittedWeightTiles160ManyWavesMaxWorkPercent)
                                   : many_waves_percent;
    const bool fits = at_most_percent(w, work,
                                      regions     ? kHopperFittedWeightTilesRegionsMaxWorkPercent
                                      : few_waves ? kHopperFittedWeightTilesMaxWorkPercent
                                                  : many_waves);
    if (fits && w < least) least = w, best = fitted;
  }
  return best;
}

// Token tiles fitted to the tokens (kHopperFittedTokenTilesMinM < M <= ...MaxM):
// the program on 80 or 96 tokens with the rows of the chosen one (128 weight rows
// in place of the 128- and 192-row programs, 64 in place of the 64-row swap
// programs) that leaves the busiest SM the least K-block work, when that is at
// most kHopperFittedTokenTilesMaxWorkPercent of the chosen plan's (...LongK in CTA
// pairs from kHopperFittedTokenTilesLongK up to kHopperFittedTokenTilesLongKMaxM
// tokens, and from ...ManyWavesMinK in place of the 192 x 128 program on
// ...ManyWavesMinWaves waves or more). Single CTAs only in one wave: on several they
// lost to the 192-row programs' two regions.
Program fitted_token_tiles(Program chosen, int64_t M, int64_t N, int64_t K, int num_sms) {
  if (M <= kHopperFittedTokenTilesMinM || M > kHopperFittedTokenTilesMaxM) return chosen;
  const bool wide = chosen == Program::kHopper128x128 || chosen == Program::kHopper192x128 ||
                    chosen == Program::kHopperSwap192x128;
  const bool narrow = chosen == Program::kHopperSwap64x64 || chosen == Program::kHopperSwap64x128;
  if (!wide && !narrow) return chosen;
  const Plan before = plan_sm90_program(chosen, M, N, K, num_sms);
  const int64_t base = busiest_sm_k_work(before, K);
  // Pairs up to ...LongKMaxM tokens take up to ...MaxWorkPercentLongK from
  // kHopperFittedTokenTilesLongK, and below it in place of the 192 x 128 program on
  // many waves (its last wave then a small share), unless the fitted weight tiles
  // would take that plan.
  const bool pairs_up_to_max_m = M <= kHopperFittedTokenTilesLongKMaxM;
  const bool many_waves = pairs_up_to_max_m && chosen == Program::kHopper192x128 &&
                          before.waves >= kHopperFittedTokenTilesManyWavesMinWaves &&
                          K >= kHopperFittedTokenTilesManyWavesMinK &&
                          fitted_weight_tiles(before, base, false, kHopperFittedWeightTilesManyWavesMaxWorkPercent, M, N,
                                              K, num_sms) == chosen;
  const Program fitted_wide[] = {Program::kHopperSwap128x80, Program::kHopperSwap128x96};
  const Program fitted_narrow[] = {Program::kHopperSwap64x80, Program::kHopperSwap64x96};
  Program best = chosen;
  int64_t least = base;
  for (Program fitted : wide ? fitted_wide : fitted_narrow) {
    const Plan q = plan_sm90_program(fitted, M, N, K, num_sms);
    const bool paired = q.cluster_m == 2;
    if (!paired && q.waves > 1) continue;
    const int64_t work = busiest_sm_k_work(q, K);
    const bool long_k = K >= kHopperFittedTokenTilesLongK && pairs_up_to_max_m && paired;
    // In place of a split, unsplit pairs in no more waves save its hand-over: equal
    // work pays, unless the fitted weight tiles would then take the plan (against the
    // split plan's own they lost).
    const bool unsplits = long_k && before.split_k > 1 && q.split_k == 1 && q.waves <= before.waves &&
                          fitted_weight_tiles(q, work, false, kHopperFittedWeightTilesManyWavesMaxWorkPercent, M, N,
                                              K, num_sms) == fitted;
    const int64_t percent = unsplits                              ? 100
                            : long_k || (paired && many_waves) ? kHopperFittedTokenTilesMaxWorkPercentLongK
                                                                : kHopperFittedTokenTilesMaxWorkPercent;
    if (at_most_percent(work, base, percent) && (work < least || (unsplits && work == least)))
      least = work, best = fitted;
  }
  return best;
}

// Past decode from K = 512 (kHopperTightTokenTiles*): in place of the 64-token
// swap tiles, of one 128-token tile or of 128-row weight tiles split in four, the
// 64-row swap program whose token tiles (80, 96 or 128 tokens) cover M in the
// fewest tiles, then with the least padding: each weight row is read once per token
// tile, and no more tensor work than the tokens need.
Program tight_token_tiles(Program chosen, int64_t M, int64_t N, int64_t K, int num_sms) {
  if (M <= kHopperSwapMaxM || M > kHopperTightTokenTilesMaxM || K < kHopperTightTokenTilesMinK) return chosen;
  const Plan before = plan_sm90_program(chosen, M, N, K, num_sms);
  const bool streams = chosen == Program::kHopperSwap64x64 ||
                       (chosen == Program::kHopperSwap64x128 && M <= before.tile_m) ||
                       (chosen == Program::kHopperSwap128x64 && before.split_k >= 4);
  // Token tiles in CTA pairs sharing their weight tile were measured as their own rule.
  if (!streams || before.cluster_m > 1) return chosen;
  // The widest tiles make the fewest; the narrowest width that makes as few pads least.
  auto tiles = [M](Program p) {
    int64_t width = 0;
    sm90::with_shape(p, [&](auto shape) { width = decltype(shape)::kBlockQ; });
    return ceil_div(M, width);
  };
  Program tight = Program::kHopperSwap64x128;
  for (Program p : {Program::kHopperSwap64x96, Program::kHopperSwap64x80})
    if (tiles(p) == tiles(Program::kHopperSwap64x128)) tight = p;
  const Plan after = plan_sm90_program(tight, M, N, K, num_sms);
  // The busiest SM's tensor work: wgmma computes all P rows of narrow tiles too.
  auto tensor_work = [K](const Plan& q) {
    int64_t rows = 0;
    sm90::with_shape(q.program, [&](auto shape) { rows = decltype(shape)::kBlockP; });
    return q.waves * ceil_div(ceil_div(K, sm90::kStageK), q.split_k) * q.tile_m * rows;
  };
  const int64_t work_before = tensor_work(before), work_after = tensor_work(after);
  const bool four_way = chosen == Program::kHopperSwap128x64;  // its hand-over costs more than its work share
  const bool no_more_work = four_way || work_after <= work_before;
  const bool one_wave = before.waves == 1 && after.waves == 1;
  const bool enough_sms = after.grid >= before.grid || N * K <= kHopperTightTokenTilesFewerSmsMaxWeightBytes;
  // A larger split hands its partial sums over once per tile, whatever the K blocks:
  // it pays from ...MoreSplitMinKBlocks per CTA, for two ways from
  // ...TwoWayMinKBlocks up to ...TwoWayMaxM tokens, and from K = ...WorkCutMinK
  // where two ways also cut the tensor work.
  const int64_t blocks = ceil_div(K, sm90::kStageK * after.split_k);
  const bool two_way = after.split_k == 2;
  const bool long_enough =
      after.split_k <= before.split_k || blocks >= kHopperTightTokenTilesMoreSplitMinKBlocks ||
      (two_way && ((blocks >= kHopperTightTokenTilesTwoWayMinKBlocks && M <= kHopperTightTokenTilesTwoWayMaxM) ||
                   (work_after < work_before && K >= kHopperTightTokenTilesTwoWayWorkCutMinK)));
  return one_wave && no_more_work && enough_sms && long_enough ? tight : chosen;
}

// In place of `split` (a plan split over K whose busiest SM has `work` K-block
// work), a 128 x 64 swap program unsplit in one wave where it leaves the busiest SM
// no more work: the split's hand-over is a fixed cost a short K loop does not pay
// back (kHopperUnsplitSwapMaxK; on slower DRAM kHopperSlowDramUnsplitSwapMaxK). The
// tokens on its 64-row side (fp8_hopper_swap_128x64) where N <= M, or where N is
// below kHopperUnsplitSwapWeightRowsMinRatio times M and that program fills at least
// as many SMs as the other; else the weights (fp8_hopper_swap_64x128).
Plan unsplit_swap(const Plan& split, int64_t work, int64_t M, int64_t N, int64_t K, int num_sms) {
  const Plan tokens = plan_sm90_program(Program::kHopperSwap128x64, M, N, K, num_sms);
  const Plan weights = plan_sm90_program(Program::kHopperSwap64x128, M, N, K, num_sms);
  const bool as_many_sms = N < kHopperUnsplitSwapWeightRowsMinRatio * M && tokens.grid >= weights.grid;
  const Plan& q = N <= M || as_many_sms ? tokens : weights;
  return q.split_k == 1 && q.waves == 1 && busiest_sm_k_work(q, K) <= work ? q : split;
}

// Few tiles past decode: the choice above sizes tiles for throughput, and with
// few of them most SMs idle. The 64-row swap programs (more, smaller tiles, and
// split-K) then take over when they leave the busiest SM at most
// kHopperSmallTileMaxWorkPercent of the work, which pays for their lower speed per
// element (H200, 2026-11-30, r = 128: M = 256, N = 1024, K = 4096: swap 64 x 64
// 6.92 us against 12.64 for 128 x 128 tiles with split 2, a quarter of the work;
// N = 512: 6.30 against 12.42; N = 1024, K = 14336: 15.15 against 27.30; at equal
// work, M = 1024, N = 1024, swap 64 x 64 is 25% slower than swap 128 x 64). At
// equal work they take over where the shape rule splits K at short K
// (kHopperUnsplitSwapMaxK). The other way round, one partial wave of 128 x 128
// tiles unsplit at long K gives way to 192 x 128 tiles split in CTA pairs
// (kHopperSplitWideTileMinK). Last, token tiles fitted to the tokens where they
// cut the work (fitted_token_tiles), else, from mid K, token tiles tight on the
// tokens (tight_token_tiles).
Program choose_sm90(int64_t M, int64_t N, int64_t K, int num_sms) {
  const Program by_shape = choose_sm90_by_shape(M, N, K, num_sms);
  if (M <= kHopperSwapMaxM) return by_shape;
  const Plan shape_plan = plan_sm90_program(by_shape, M, N, K, num_sms);
  const int64_t shape_work = busiest_sm_k_work(shape_plan, K);
  int64_t best = shape_work;
  Program chosen = by_shape;
  for (Program small : {Program::kHopperSwap64x64, Program::kHopperSwap128x64, Program::kHopperSwap64x128}) {
    const int64_t work = busiest_sm_k_work(plan_sm90_program(small, M, N, K, num_sms), K);
    if (at_most_percent(work, shape_work, kHopperSmallTileMaxWorkPercent) && work < best) best = work, chosen = small;
  }
  // Few tiles at short K: a split of the shape rule's tiles gives way to the swap
  // program unsplit in one wave (kHopperUnsplitSwapMaxK).
  if (chosen == by_shape && K <= kHopperUnsplitSwapMaxK && shape_plan.split_k > 1)
    chosen = unsplit_swap(shape_plan, best, M, N, K, num_sms).program;
  // One partial wave of 128 x 128 tiles at long K: the 192 x 128 program split
  // (kHopperSplitWideTileMinK).
  if (chosen == Program::kHopper128x128 && K >= kHopperSplitWideTileMinK && shape_plan.split_k == 1 &&
      shape_plan.waves == 1) {
    const Plan q = plan_sm90_program(Program::kHopper192x128, M, N, K, num_sms);
    if (q.split_k > 1 && at_most_percent(busiest_sm_k_work(q, K), best, kHopperSplitWideTileMaxWorkPercent))
      chosen = Program::kHopper192x128;
  }
  const Program fitted = fitted_token_tiles(chosen, M, N, K, num_sms);
  return fitted != chosen ? fitted : tight_token_tiles(chosen, M, N, K, num_sms);
}

// The busiest SM's output elements under a plan, weighted by its program's speed
// per element (kHopperRegionSquareCostPercent, kHopperRegionSwapCostPercent), a
// tile split over s CTAs (split-K) weighing (s + 1) / 2s of a whole one (its K loop
// shared, its fill, hand-over and epilogue not); -1 for programs not weighed.
int64_t region_cost(const Plan& p) {
  const int64_t percent = p.program == Program::kHopper128x128 ? kHopperRegionSquareCostPercent
                          : p.program == Program::kHopper192x128 || p.program == Program::kHopperSwap192x128
                              ? 100
                          : p.program == Program::kHopperSwap128x64 || p.program == Program::kHopperSwap64x128 ||
                                  p.program == Program::kHopper64x96
                              ? kHopperRegionSwapCostPercent
                              : -1;
  return percent < 0 ? -1 : p.waves * p.tile_m * p.tile_n * percent * (p.split_k + 1) / (2 * p.split_k);
}

Plan plan_sm90_one(int64_t M, int64_t N, int64_t K, int num_sms) {
  return plan_sm90_program(choose_sm90(M, N, K, num_sms), M, N, K, num_sms);
}

// SM90 two regions (kHopperRegionMinGainPercent): a head of the three-consumer
// program filling k whole waves (k below the one-program plan's waves, up to
// kHopperRegionMaxWaves of them), cut off along rows or columns of out, the rest
// planned as a problem of its own. The best plan so far, its estimated cost and
// the busiest SM's K-block work (both regions' where there are two).
struct Cuts {
  Plan best;
  int64_t cost, work;
};

// No cut yet: `one` whole, which a cut must beat by kHopperRegionMinGainPercent.
Cuts uncut(const Plan& one, int64_t K) {
  return {one, region_cost(one) * (100 - kHopperRegionMinGainPercent) / 100, busiest_sm_k_work(one, K)};
}

// Tries every head of whole rows (or columns) of the clusters' tiles of `one`;
// keeps the cheapest in `c`.
void cut_along(Cuts& c, const Plan& one, bool rows, int64_t M, int64_t N, int64_t K, int num_sms) {
  const int64_t per_wave = one.workers / (one.cluster_m * one.cluster_n);  // clusters' tiles per wave
  // The clusters' tiles in one row (column) of them, and the rows (columns) of out it spans.
  const int64_t per_cut = rows ? ceil_div(one.tiles_n, one.cluster_n) : ceil_div(one.tiles_m, one.cluster_m);
  const int64_t step = rows ? one.tile_m * one.cluster_m : one.tile_n * one.cluster_n;
  const int64_t extent = rows ? M : N;
  // The head's and the rest's problems when the head is `head` rows or columns.
  auto region = [&](int64_t from, int64_t to) {
    return rows ? plan_sm90_one(to - from, N, K, num_sms) : plan_sm90_one(M, to - from, K, num_sms);
  };
  for (int64_t k = 1; k < one.waves; ++k) {
    const int64_t head = k * per_wave / per_cut * step;
    if (head <= 0 || head >= extent) continue;
    const Plan h = region(0, head), t = region(head, extent);
    const int64_t hc = region_cost(h), tc = region_cost(t);
    if (h.program != one.program || tc < 0) continue;
    if (hc + tc < c.cost) c = {h, hc + tc, busiest_sm_k_work(h, K) + busiest_sm_k_work(t, K)};
  }
}

// SM90: one program, or two regions cut along its P operand (whole P tiles: rows
// of out for fp8_hopper_192x128, columns for the turned fp8_hopper_swap_192x128);
// weight tiles fitted to the weights in its place where they cut the work
// (fitted_weight_tiles); where they do not, from kHopperRegionAcrossMinK on, also
// cuts along Q (whole Q blocks of the clusters: columns, or rows for the turned
// program); the cut the estimate likes best.
Plan plan_sm90_tiles(int64_t M, int64_t N, int64_t K, int num_sms) {
  const Plan one = plan_sm90_one(M, N, K, num_sms);
  Cuts c = uncut(one, K);
  const bool turned = one.program == Program::kHopperSwap192x128;
  const bool cuttable = (one.program == Program::kHopper192x128 || turned) && one.waves <= kHopperRegionMaxWaves;
  if (cuttable) cut_along(c, one, !turned, M, N, K, num_sms);
  const bool regions = c.best.head_m != M || c.best.head_n != N;
  const Program fitted =
      fitted_weight_tiles(c.best, c.work, regions, kHopperFittedWeightTilesManyWavesMaxWorkPercent, M, N, K, num_sms);
  if (fitted != c.best.program) return plan_sm90_program(fitted, M, N, K, num_sms);
  if (cuttable && K >= kHopperRegionAcrossMinK) cut_along(c, one, turned, M, N, K, num_sms);
  // Long K, and no cut took the plan: fitted tiles on more waves up to a higher
  // share of its work (kHopperFittedWeightTilesLongK).
  if (c.best.head_m == M && c.best.head_n == N && K >= kHopperFittedWeightTilesLongK) {
    const Program long_k =
        fitted_weight_tiles(c.best, c.work, false, kHopperFittedWeightTilesLongKMaxWorkPercent, M, N, K, num_sms);
    if (long_k != c.best.program) return plan_sm90_program(long_k, M, N, K, num_sms);
  }
  return c.best;
}

// Last, token tiles of 160 (fp8_hopper_swap_128x160, kHopperTokenTiles160*): in
// place of a plan of one program past decode, unsplit in no more waves, when they
// leave its busiest SM no more K-block work. Where the plan is still one 192-row
// program on more waves than plan_sm90_tiles cuts (kHopperRegionMaxWaves), the same
// cuts into two regions, from kHopperRegionManyWavesMinK (kHopperRegionManyWaves*).
Plan plan_sm90_shape(int64_t M, int64_t N, int64_t K, int num_sms) {
  const Plan chosen = plan_sm90_tiles(M, N, K, num_sms);
  if (chosen.head_m != M || chosen.head_n != N) return chosen;
  // Few SMs, 33..64 tokens: 128-row weight tiles, unsplit (kHopperSwapWideWeightTiles*).
  if (chosen.program == Program::kHopperSwap64x64 && M > kHopperSwapTokens32MaxM && M <= kHopperSwapMaxM &&
      chosen.cluster_m * chosen.cluster_n == 1 && num_sms <= kHopperFewSms) {
    const Plan q = plan_sm90_program(Program::kHopperSwap128x64, M, N, K, num_sms, 1);
    if (q.cluster_m * q.cluster_n == 1 && q.grid * 2 > num_sms &&
        at_most_percent(busiest_sm_rows_streamed(q, M, N, K, num_sms),
                        busiest_sm_rows_streamed(chosen, M, N, K, num_sms), kHopperSwapWideWeightTilesMaxRowsPercent))
      return q;
  }
  if (M > kHopperTokenTiles160MinM) {
    const Plan q = plan_sm90_program(Program::kHopperSwap128x160, M, N, K, num_sms);
    const bool fits = q.split_k == 1 && q.waves <= chosen.waves;
    if (fits && busiest_sm_k_work(q, K) <= busiest_sm_k_work(chosen, K)) return q;
  }
  const bool turned = chosen.program == Program::kHopperSwap192x128;
  const bool many_waves = (chosen.program == Program::kHopper192x128 || turned) &&
                          chosen.waves > kHopperRegionMaxWaves && chosen.waves <= kHopperRegionManyWavesMaxWaves;
  if (!many_waves || K < kHopperRegionManyWavesMinK) return chosen;
  Cuts c = uncut(chosen, K);
  cut_along(c, chosen, !turned, M, N, K, num_sms);
  if (K >= kHopperRegionAcrossMinK) cut_along(c, chosen, turned, M, N, K, num_sms);
  return c.best;
}

// In place of two regions whose head is the 192 x 128 program on
// kHopper256RowTilesHeadWaves waves: 256 x 128 tiles over the whole problem, single CTAs,
// in at most kHopper256RowTilesMaxWaves waves, on more than kHopperFewSms SMs, where they
// leave the busiest SM no more K-block work than the two regions together (rules.h).
// `shape` is the plan by the shape alone.
Plan plan_sm90_256_row_tiles(const Plan& shape, int64_t M, int64_t N, int64_t K, int num_sms) {
  const bool regions = shape.head_m != M || shape.head_n != N;
  if (num_sms <= kHopperFewSms || !regions ||
      shape.program != Program::kHopper192x128 || shape.waves != kHopper256RowTilesHeadWaves)
    return shape;
  // The rest as cut_along weighed it: a split rest leaves the busiest SM less work.
  const Plan rest = shape.head_m != M ? plan_sm90_one(M - shape.head_m, N, K, num_sms)
                                      : plan_sm90_one(M, N - shape.head_n, K, num_sms);
  const Plan tiles = plan_sm90_program(Program::kHopper256x128, M, N, K, num_sms, 1, 0, 0, 1);
  const bool no_more_work = busiest_sm_k_work(tiles, K) <= busiest_sm_k_work(shape, K) + busiest_sm_k_work(rest, K);
  return tiles.waves <= kHopper256RowTilesMaxWaves && no_more_work ? tiles : shape;
}

// On boards with slower DRAM, pairings the H200 does without, where waves of single
// CTAs are paced by what L2 delivers:
//  - one or two waves of a program built both ways (128 x 112, 128 x 128) over two
//    or more token tiles and at least as many weight tiles, at long K (longer for one
//    wave): CTA pairs sharing the weight tile (lying along M);
//  - two waves of a 192-token program (192 x 112, 192 x 128) over two or more token
//    tiles, at long K: CTA pairs the program's usual way (sharing the token tile).
// The same program, tiles and split; only the pairing differs, where the pairs take
// no more waves. The conditions include those under which the pairing is possible.
// `chosen` is one region's plan (its head_m x head_n; the rest of out is planned as a
// problem of its own and comes here in its turn), so a two-region plan's head pairs
// as a one-region plan of the same tiles and waves does.
Plan slow_dram_pairs(const Plan& chosen, int64_t K, int num_sms) {
  const bool single = chosen.cluster_m * chosen.cluster_n == 1 &&
                      chosen.split_k == 1 && chosen.tiles_m >= 2 && chosen.tiles_n >= 2;
  if (!single) return chosen;
  // The programs by their shapes (config.h): built both ways; 192 tokens, not turned.
  bool both_ways = false, tokens192 = false;
  sm90::with_shape(chosen.program, [&](auto shape) {
    using Shape = decltype(shape);
    both_ways = Shape::kPairsBothWays;
    tokens192 = !Shape::kSwapAB && Shape::kBlockP == 192 && chosen.tile_m == Shape::kBlockP;
  });
  const bool long_k = chosen.waves == 1 ? K >= kHopperSlowDramWeightPairsMinK
                                         : chosen.waves == 2 && K >= kHopperSlowDramTwoWavePairsMinK;
  int multicast = 1;
  if (long_k && both_ways && chosen.tiles_n >= chosen.tiles_m)
    multicast = kMulticastAlongM;
  else if (long_k && tokens192 && chosen.waves == 2)
    multicast = 2;
  if (multicast == 1) return chosen;
  const Plan pairs = plan_sm90_program(chosen.program, chosen.head_m, chosen.head_n, K, num_sms, 1, 0, 0, multicast);
  return pairs.waves == chosen.waves ? pairs : chosen;
}

// The plans the slower-DRAM tile steps replace: one unsplit region over the whole
// problem, on more than kHopperFewSms SMs.
bool whole_unsplit(const Plan& chosen, int64_t M, int64_t N, int num_sms) {
  return num_sms > kHopperFewSms && chosen.split_k == 1 && chosen.head_m == M && chosen.head_n == N;
}

// On boards with slower DRAM, two waves of 128 x 128 tiles over the whole problem,
// single or in pairs sharing the token tile, from kHopperSlowDram256RowTilesMinK on, or
// of single 128 x 112 CTAs (which no pairing took) from
// kHopperSlowDram256RowTilesOver112MinK on, K not a multiple of
// kHopperSlowDram256RowTilesOver112KeepK: one wave of 256 x 128 tiles, single CTAs,
// where they take one wave and leave the busiest SM no more K-block work (up to
// kHopperSlowDram256RowTilesOver112MaxWorkPercent of it in place of 128 x 112). Each SM
// then reads 384 operand rows per K block for its 256 x 128 outputs, not 512 (448 for
// 2 x 128 x 112).
Plan slow_dram_256_row_tiles(const Plan& chosen, int64_t M, int64_t N, int64_t K, int num_sms) {
  const bool rows128 = chosen.program == Program::kHopper128x128 && chosen.cluster_m == 1 &&
                       K >= kHopperSlowDram256RowTilesMinK;
  const bool rows128x112 = chosen.program == Program::kHopper128x112 && chosen.cluster_m * chosen.cluster_n == 1 &&
                           K >= kHopperSlowDram256RowTilesOver112MinK &&
                           K % kHopperSlowDram256RowTilesOver112KeepK != 0;
  if (!whole_unsplit(chosen, M, N, num_sms) || !(rows128 || rows128x112) || chosen.waves != 2) return chosen;
  const Plan tiles = plan_sm90_program(Program::kHopper256x128, M, N, K, num_sms, 1, 0, 0, 1);
  const int64_t max_percent = rows128x112 ? kHopperSlowDram256RowTilesOver112MaxWorkPercent : 100;
  const bool work = at_most_percent(busiest_sm_k_work(tiles, K), busiest_sm_k_work(chosen, K), max_percent);
  return tiles.waves == 1 && work ? tiles : chosen;
}

// On boards with slower DRAM, three or more waves of 128 x 112 pairs over the whole
// problem from kHopperSlowDramWideTilesMinK on: 128 x 160 pairs where they take fewer
// waves for at most kHopperSlowDramWideTilesMaxWorkPercent of the K-block work. Each
// pair then reads 128 + 320 operand rows per K block for 128 x 320 outputs, not
// 128 + 224 for 128 x 224.
Plan slow_dram_wide_tiles(const Plan& chosen, int64_t M, int64_t N, int64_t K, int num_sms) {
  if (!whole_unsplit(chosen, M, N, num_sms) || chosen.program != Program::kHopper128x112 || chosen.cluster_n != 2 ||
      chosen.waves < 3 || K < kHopperSlowDramWideTilesMinK)
    return chosen;
  const Plan wide = plan_sm90_program(Program::kHopper128x160, M, N, K, num_sms);
  const bool fewer = wide.split_k == 1 && wide.cluster_n == 2 && wide.waves < chosen.waves;
  const bool work = at_most_percent(busiest_sm_k_work(wide, K), busiest_sm_k_work(chosen, K),
                                    kHopperSlowDramWideTilesMaxWorkPercent);
  return fewer && work ? wide : chosen;
}

// A board whose DRAM is slower than the H200's (kHopperSlowDramMaxGbps: the H100 SXM)
// changes a plan in four steps (kHopperSlowDram*): 128 x 128 tiles split over K give
// way to the unsplit swap program up to a longer K than on the H200
// (kHopperSlowDramUnsplitSwapMaxK, unsplit_swap); else pairings (slow_dram_pairs);
// then 256 x 128 tiles in place of two waves of 128 x 128 (where no pairs along M were
// taken) or of 128 x 112 (slow_dram_256_row_tiles); then 128 x 160 pairs in place of
// more waves of 128 x 112 pairs (slow_dram_wide_tiles).
Plan plan_sm90_board(const Plan& chosen, int64_t M, int64_t N, int64_t K, int num_sms, int dram_gbps) {
  const bool slow_dram = dram_gbps > 0 && dram_gbps <= kHopperSlowDramMaxGbps;
  if (!slow_dram) return chosen;
  if (chosen.program == Program::kHopper128x128 && chosen.split_k > 1 && K <= kHopperSlowDramUnsplitSwapMaxK)
    return unsplit_swap(chosen, busiest_sm_k_work(chosen, K), chosen.head_m, chosen.head_n, K, num_sms);
  // slow_dram_256_row_tiles leaves 128 x 128 pairs along M as they are.
  const Plan paired = slow_dram_pairs(chosen, K, num_sms);
  return slow_dram_wide_tiles(slow_dram_256_row_tiles(paired, M, N, K, num_sms), M, N, K, num_sms);
}

}  // namespace

Plan plan_sm90(int64_t M, int64_t N, int64_t K, int num_sms, int dram_gbps) {
  const Plan shape = plan_sm90_shape(M, N, K, num_sms);
  const Plan tiles = plan_sm90_256_row_tiles(shape, M, N, K, num_sms);
  return tiles.program != shape.program ? tiles : plan_sm90_board(shape, M, N, K, num_sms, dram_gbps);
}

}  // namespace cake::planner
