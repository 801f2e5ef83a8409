// One Hopper program's plan, given the program: its tiles (and the narrow rows of
// the 64-row swap programs), split-K, CTA pairs and raster. What plan() does once
// sm90_choice.cpp has chosen the program; the benchmark's forced runs call it too.
#include "plan/sm90.h"

#include <algorithm>
#include <string>

#include "cake/errors.h"
#include "plan/grid.h"
#include "plan/rules.h"
#include "sm90/config.h"
#include "sm90/programs.h"

namespace cake::planner {

// Hopper: K elements between promotions of the tensor cores' partial sums.
int hopper_promotion_k(int64_t K) {
  return K >= kHopperLongPromotionMinK ? sm90::kPromotionLongK : sm90::kPromotionShortK;
}

namespace {

// Clusters of `split` CTAs (one CTA per SM) that are resident at once. For the
// 132-SM H100 / H200 these are cudaOccupancyMaxActiveClusters of both Hopper
// programs, measured on the H200 (2026-11-30): GPC sizes keep clusters of 4 and
// 8 below num_sms / 4 and / 8. Other SM counts: clusters of 2 only.
int64_t resident_clusters(int split, int num_sms) {
  if (num_sms == 132) return split == 2 ? 66 : split == 4 ? 30 : split == 8 ? 15 : 0;
  return split == 2 ? num_sms / 2 : 0;
}

// What a decode K loop streams per tile: weight rows, token rows (rounded up to 8).
struct DecodeStream {
  int64_t weight_rows, token_rows;
};

// Estimated time of a decode K loop of k_blocks per tile, `tiles` tiles at once in
// clusters of `split` (kHopperDecodeMemoryBytesPerNs and what follows, rules.h).
int64_t decode_loop_ns(int64_t tiles, int split, int64_t k_blocks, int num_sms, const DecodeStream& d) {
  const int64_t ctas = std::min<int64_t>(tiles * split, num_sms);
  const int64_t memory_ns = ctas * d.weight_rows * sm90::kRowBytes / kHopperDecodeMemoryBytesPerNs;
  // One SM alone: its weights, and from 32 tokens on their bytes from L2 too.
  const int64_t token_ns = (kHopperDecodeSmBlockNsWide - kHopperDecodeSmBlockNs) *
                           std::max<int64_t>(0, d.token_rows - 32) / 32;
  const int64_t sm_ns = (kHopperDecodeSmBlockNs + token_ns) * d.weight_rows / 64;
  return ceil_div(k_blocks, split) * std::max(memory_ns, sm_ns) +
         (split > 1 ? kHopperSplitHandoverNsPerToken * d.token_rows : 0);
}

// The hand-over of a split tile's partial sums, in half K blocks: in decode on
// more than kHopperFewSms SMs kHopperDecodeSplitHandoverHalfBlocks, else one block.
int64_t split_handover_half_blocks(bool decode, int num_sms) {
  return decode && num_sms > kHopperFewSms ? kHopperDecodeSplitHandoverHalfBlocks : 2;
}

// Split-K for a Hopper program with `tiles` tiles of `k_blocks` K blocks each, in
// clusters of at most max_split CTAs (the program's kMaxSplit).
//  - One round: the largest cluster (8, 4, 2) whose clusters, one per tile, are
//    all resident at once and leave every CTA a K block; few tiles (few N tiles)
//    then run on more SMs (H200: 16 tiles, split 4: 13.3 us against split 2:
//    15.4 us). Decode on the swap programs (`stream` given) takes that split only
//    where it is estimated faster than none (decode_loop_ns): 64 SMs unsplit
//    already stream weights at the memory's rate.
//  - Several rounds, for decode (weight-bound: M <= kHopperSwapMaxM): clusters of
//    2 walking the tiles, when that leaves the busiest SM fewer K blocks, counting
//    two and a half more per tile for the hand-over of the partial sums (one on
//    few SMs: split_handover_half_blocks): it evens out a last wave that only
//    some SMs would stream (M = 1, N = 28672, K = 8192: 448 tiles of 64 rows, 7
//    rounds of 32 K blocks instead of 4 of 64). Compute-bound tiles are
//    left whole: there the hand-over (the tile in fp32 through distributed shared
//    memory) is estimated to cost more than the one K block counted for it (not
//    measured).
int choose_split(int64_t tiles, int64_t k_blocks, int num_sms, bool decode, int max_split,
                 const DecodeStream* stream) {
  for (int s = max_split; s >= 2; s /= 2)
    if (s <= k_blocks && tiles <= resident_clusters(s, num_sms))
      return !stream || decode_loop_ns(tiles, s, k_blocks, num_sms, *stream) <
                            decode_loop_ns(tiles, 1, k_blocks, num_sms, *stream)
                 ? s
                 : 1;
  const int64_t pairs = resident_clusters(2, num_sms);
  if (decode && max_split >= 2 && pairs > 0 && k_blocks >= 2 &&
      ceil_div(tiles, pairs) * (2 * ceil_div(k_blocks, 2) + split_handover_half_blocks(decode, num_sms)) <
          ceil_div(tiles, num_sms) * 2 * k_blocks)
    return 2;
  return 1;
}

// The tiles and split-K of one Hopper program whose P tiles are `rows` rows.
template <typename Shape>
void hopper_grid(Plan& p, int64_t rows, int64_t M, int64_t N, int64_t K, int num_sms, int split) {
  set_grid(p, Shape::kSwapAB ? Shape::kTileM : rows, Shape::kSwapAB ? rows : Shape::kTileN, M, N, num_sms, 1);
  const bool decode = M <= kHopperSwapMaxM;
  const DecodeStream stream{rows, std::min<int64_t>(Shape::kBlockQ, ceil_div(M, 8) * 8)};
  // The decode estimate decides on whole tiles, where it was measured; narrow tiles
  // keep the largest split, with which their rows were fitted (busiest_sm_rows_streamed).
  if (split == 0)
    split = choose_split(p.tiles, ceil_div(K, sm90::kStageK), num_sms, decode, Shape::kMaxSplit,
                         decode && Shape::kSwapAB && rows == Shape::kBlockP ? &stream : nullptr);
  p.split_k = 1;
  if (split > 1) {
    // Persistent clusters, as many as are resident (all tiles at once where the
    // residency of this cluster size is not known).
    const int64_t clusters = resident_clusters(split, num_sms);
    p.split_k = split;
    p.workers = clusters > 0 ? clusters : p.tiles;
    p.waves = ceil_div(p.tiles, p.workers);
    p.grid = static_cast<int>(std::min(p.tiles, p.workers) * split);
  }
}

}  // namespace

// What the busiest SM of a swap program streams, in 128-deep K blocks times rows:
// its waves of tiles, each its share of the K blocks (and the hand-over of split-K
// partial sums, split_handover_half_blocks) over the tile's weight rows, from
// memory, and half its token rows, which every CTA reads again from L2. Past half
// the SMs, CTAs share TPCs (two SMs each) and their path to memory: each SM then
// counts 1.6 times its rows. Fitted on the H200 (2026-11-30, r = 128, K = 4096):
// M = 1, N = 1024 and 2048 run as fast or faster on 64 SMs with 64-row tiles than
// on 104 with 40-row ones, N = 4288 faster on 108 SMs with 40 rows than on 67 with
// 64; M = 64, N = 28672: 512 tiles of 56 rows unsplit 34.50 us against 448 of 64 in
// split-K pairs 36.18.
int64_t busiest_sm_rows_streamed(const Plan& p, int64_t M, int64_t N, int64_t K, int num_sms) {
  // Operands shorter than a tile stream only their rows (rounded up to 8).
  const int64_t weights = std::min<int64_t>(p.tile_n, ceil_div(N, 8) * 8);
  const int64_t tokens = std::min<int64_t>(p.tile_m, ceil_div(M, 8) * 8);
  const int64_t handover = p.split_k > 1 ? split_handover_half_blocks(M <= kHopperSwapMaxM, num_sms) : 0;
  const int64_t k_halves = 2 * ceil_div(ceil_div(K, sm90::kStageK), p.split_k) + handover;  // half K blocks
  const int64_t rows2 = p.waves * k_halves * (2 * weights + tokens);  // twice the rows counted
  return p.grid > num_sms / 2 ? rows2 * 8 / 5 : rows2;
}

namespace {

// The 64-row swap programs stream weights: their tiles may take fewer weight rows
// than the 64 that wgmma computes (config.h kNarrowTiles; the rows past them are
// never loaded nor stored), so that tiles spread over more SMs where 64-row tiles
// leave many idle. The rows (kHopperNarrowRows) that leave the busiest SM the
// least to stream (above); the widest on ties. H200, 2026-11-30, r = 128,
// K = 4096: N = 6144 is 96 tiles of 64 rows or 128 of 48: M = 1 9.30 against
// 10.47 us, M = 64 10.17 against 11.26; M = 1, N = 28672: 512 tiles of 56 rows
// unsplit instead of 448 of 64 in split-K pairs, 32.67 against 34.15.
template <typename Shape>
void hopper(Plan& p, Program program, int64_t M, int64_t N, int64_t K, int num_sms, int split, int rows) {
  p.program = program;
  p.tile_k = sm90::kStageK;
  p.swap_ab = Shape::kSwapAB;
  p.scheduler = "static_persistent";
  if (split > Shape::kMaxSplit)
    throw InvalidArgument(std::string("plan_sm90_program: ") + program_name(program) + " splits K over at most " +
                          std::to_string(Shape::kMaxSplit) + " CTAs (the landing stages of the others' partial " +
                          "sums must fit its ring)");
  constexpr bool narrowable = Shape::kNarrowTiles;
  if (rows != 0 && !(rows == Shape::kBlockP || (narrowable && rows % 8 == 0 && rows >= 8 && rows < Shape::kBlockP)))
    throw InvalidArgument(std::string("plan_sm90_program: ") + program_name(program) + " takes tiles of " +
                          std::to_string(Shape::kBlockP) + " rows" +
                          (narrowable ? " or fewer, a multiple of 8" : "") + " (got " + std::to_string(rows) + ")");
  if (rows != 0) return hopper_grid<Shape>(p, rows, M, N, K, num_sms, split);

  hopper_grid<Shape>(p, Shape::kBlockP, M, N, K, num_sms, split);
  if (!narrowable) return;
  int64_t best = busiest_sm_rows_streamed(p, M, N, K, num_sms);
  for (int narrow : kHopperNarrowRows) {
    Plan q = p;
    hopper_grid<Shape>(q, narrow, M, N, K, num_sms, split);
    const int64_t work = busiest_sm_rows_streamed(q, M, N, K, num_sms);
    if (work < best) best = work, p = q;
  }
}

// CTA pairs that share one operand's tile, each loading half of it into both by
// TMA multicast: a quarter less traffic from L2 per output element on 128 x 128
// tiles (a fifth on 192 x 128; their K loops read 7.7-8.5 TB/s from L2 on the
// H200). A pair lying along Q shares its P tile, one lying along P its Q tile.
// Each program's pairs lie one way (config.h kPairsShareQ), 128 x 112's and
// 128 x 128's either way (kPairsBothWays): 128 x 112 along P, sharing the weight
// tile, on two token tiles at long K (kHopperWeight112Pairs*), else along Q;
// 128 x 128 along P only when forced. Possible without split-K, on
// whole shared tiles (no narrow ones, the operand at least a tile long) and at
// least two tiles along the pairs. The plan takes it (multicast 0) on tiles of at
// least 128 x 112 from kHopperMulticastMinWaves waves on (128 x 112 and 128 x 128
// from two at long K over many token tiles, kHopperMulticastTwoWaves*), for the
// two token tiles of the 64 x 64 and 64 x 32 swap programs in one wave of pairs on
// nearly every SM (kHopperTokenTilePairsMinM and the K ranges after it,
// kHopperHalfTokenTilePairsMinK), for 80-row weight tiles in one wave of many
// token tiles at long K (kHopperWeight80Pairs*) and for the 128 x 112 weight
// pairs; 1 / 2 force it off / on, lying the program's usual way, kMulticastAlongM
// / N on, lying along M / N (InvalidArgument where impossible).
template <typename Shape>
void hopper_multicast(Plan& p, int64_t M, int64_t N, int64_t K, int num_sms, int multicast) {
  const bool swap = Shape::kSwapAB;
  const int64_t tiles_p = swap ? p.tiles_n : p.tiles_m, tiles_q = swap ? p.tiles_m : p.tiles_n;
  // 128 x 112 on two token tiles at long K, on one or two waves: pairs sharing the
  // weight tile.
  const bool weights112 = Shape::kPairsBothWays && Shape::kBlockQ == 112 && tiles_p == 2 &&
                          K >= kHopperWeight112PairsMinK && p.waves <= kHopperWeight112PairsMaxWaves;
  // Pairs along P: they share the Q tile (the program's way, config.h
  // kPairsShareQ, but where it pairs both ways, kPairsBothWays).
  const bool share_q = multicast == kMulticastAlongM   ? !swap
                       : multicast == kMulticastAlongN ? swap
                                                       : Shape::kPairsShareQ || (multicast == 0 && weights112);
  if (share_q != Shape::kPairsShareQ && !Shape::kPairsBothWays)
    throw InvalidArgument(std::string("plan_sm90_program: ") + program_name(p.program) + "'s CTA pairs lie along " +
                          (swap == Shape::kPairsShareQ ? "N" : "M") + " only");
  const int64_t p_extent = swap ? N : M, q_extent = swap ? M : N;
  const int tile_p = swap ? p.tile_n : p.tile_m;
  const int64_t clusters = resident_clusters(2, num_sms);
  // The shared operand's tiles, and those along the pairs.
  const int64_t tiles_shared = share_q ? tiles_q : tiles_p, tiles_along = share_q ? tiles_p : tiles_q;
  const bool whole_shared = share_q ? q_extent >= Shape::kBlockQ : tile_p == Shape::kBlockP && p_extent >= Shape::kBlockP;
  const bool possible = p.split_k == 1 && whole_shared && tiles_along >= 2 && clusters > 0;
  const bool forced = multicast >= 2;  // the program's way, kMulticastAlongM or kMulticastAlongN
  if (forced && !possible)
    throw InvalidArgument(std::string("plan_sm90_program: ") + program_name(p.program) + " multicasts its " +
                          (share_q ? "Q" : "P") + " tile only without split-K, on whole " + (share_q ? "Q" : "P") +
                          " tiles of " + std::to_string(share_q ? Shape::kBlockQ : Shape::kBlockP) +
                          " rows and at least two tiles along " + (share_q ? "P" : "Q"));
  // Pairs of tiles (the last one along the pairs may be single), and their waves.
  const int64_t pairs = tiles_shared * ceil_div(tiles_along, 2);
  const int64_t pair_waves = ceil_div(pairs, std::max<int64_t>(clusters, 1));
  // On two waves: the 128-token programs with two partial-sum sets (128 x 112,
  // 128 x 128), at long K over many token tiles, where the pairs take two waves too.
  const bool two_waves = !swap && Shape::kBlockP == 128 && Shape::kBlockQ <= 128 && p.waves == 2 &&
                         K >= kHopperMulticastTwoWavesMinK && tiles_p >= kHopperMulticastTwoWavesMinTokenTiles &&
                         pair_waves == 2;
  const bool wide =
      Shape::kBlockP >= 128 && Shape::kBlockQ >= 112 && (p.waves >= kHopperMulticastMinWaves || two_waves);
  const bool one_full_wave_of_pairs =
      tiles_p <= clusters && 2 * tiles_p * 100 >= int64_t{num_sms} * kHopperTokenTilePairsMinFillPercent;
  // 64-token tiles: from kHopperTokenTilePairsMinK with two whole token tiles, past
  // it with a partial second one.
  const bool token_k = Shape::kBlockQ == 64
                           ? M >= kHopperTokenTilePairsMinM && K <= kHopperTokenTilePairsMaxK &&
                                 (M % Shape::kBlockQ == 0 ? K >= kHopperTokenTilePairsMinK : K > kHopperTokenTilePairsMinK)
                           : Shape::kBlockQ == 32 && K >= kHopperHalfTokenTilePairsMinK;
  const bool token_tiles = swap && Shape::kBlockP == 64 && tiles_q == 2 && token_k && one_full_wave_of_pairs;
  // Fitted token tiles (80 or 96 tokens): in pairs wherever the pairs take no
  // more waves than single CTAs would.
  const bool fitted = swap && (Shape::kBlockQ == 80 || Shape::kBlockQ == 96) && pair_waves <= p.waves;
  // Weight tiles shared by two token tiles (64 x 96 at 65..128 tokens): one wave of
  // pairs on most SMs, at long enough K (kHopperWeightTilePairsMinK).
  const bool weight_tiles = share_q && Shape::kBlockP == 64 && tiles_along == 2 && K >= kHopperWeightTilePairsMinK &&
                            tiles_shared <= clusters &&
                            2 * tiles_shared * 100 >= int64_t{num_sms} * kHopperWeightTilePairsMinFillPercent;
  // 80-row weight tiles in one wave: pairs sharing the weight tile from
  // kHopperWeight80PairsMinTokenTiles token tiles at long K (kHopperWeight80PairsMinK).
  const bool rows80 = !swap && Shape::kBlockQ == 80 && p.waves == 1 && tiles_p >= kHopperWeight80PairsMinTokenTiles &&
                      K >= kHopperWeight80PairsMinK && pair_waves == 1;
  const bool on = forced || (multicast == 0 && possible &&
                             (wide || token_tiles || fitted || weight_tiles || rows80 ||
                              (weights112 && pair_waves <= p.waves)));
  if (!on) return;
  (swap != share_q ? p.cluster_m : p.cluster_n) = 2;
  p.workers = clusters * 2;
  p.waves = pair_waves;
  p.grid = static_cast<int>(std::min(pairs, clusters) * 2);
}

// The tiles' order (scheduler.cuh): a grouped raster, kRasterGroup tiles down P
// before a step along Q, so that CTAs resident together share a narrow band of both
// operands in L2; the turned programs (P = the weights) and the 80-row weight tiles
// at long K over several token tiles or split (kHopperWeight80AlongQ*), single or
// in pairs, along Q first.
template <typename Shape>
void hopper_raster(Plan& p, int64_t K) {
  const bool rows80 = !Shape::kSwapAB && Shape::kBlockQ == 80 && K >= kHopperWeight80AlongQMinK &&
                      (p.tiles_m >= kHopperWeight80AlongQMinTokenTiles || p.split_k > 1);
  const bool along_q = Shape::kSwapAB || rows80;
  p.raster = "grouped";
  p.raster_group = along_q ? 1 : sm90::kRasterGroup;
}

}  // namespace
}  // namespace cake::planner

namespace cake {

Plan plan_sm90_program(Program program, int64_t M, int64_t N, int64_t K, int num_sms, int split, int rows,
                       int promotion_k, int multicast) {
  if (split < 0 || split > 8 || (split & (split - 1)))
    throw InvalidArgument("plan_sm90_program: split must be 0 (the plan chooses), 1, 2, 4 or 8");
  if (promotion_k != 0 && promotion_k != sm90::kPromotionShortK && promotion_k != sm90::kPromotionLongK)
    throw InvalidArgument("plan_sm90_program: promotion_k must be 0 (the plan chooses), 64 or 128");
  if (multicast < 0 || multicast > kMulticastAlongN)
    throw InvalidArgument(
        "plan_sm90_program: multicast must be 0 (the plan chooses), 1 (off), 2 (CTA pairs the program's usual way), "
        "3 (pairs along M) or 4 (pairs along N)");
  Plan p{};
  p.arch = Arch::SM90;
  p.promotion_k = promotion_k != 0 ? promotion_k : planner::hopper_promotion_k(K);
  const bool hopper_program = sm90::with_shape(program, [&](auto shape) {
    planner::hopper<decltype(shape)>(p, program, M, N, K, num_sms, split, rows);
    planner::hopper_multicast<decltype(shape)>(p, M, N, K, num_sms, multicast);
    planner::hopper_raster<decltype(shape)>(p, K);
  });
  if (!hopper_program)
    throw InvalidArgument(std::string("plan_sm90_program: ") + program_name(program) + " is not a Hopper program");
  p.head_m = M;
  p.head_n = N;
  return p;
}

}  // namespace cake
