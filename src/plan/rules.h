// The plan's rules: every threshold of the SM90 program choice (and the
// Blackwell raster block), each with the measurements that set it. Internal to
// the plan (src/plan/sm90_*.cpp, sm100.cpp) and its tests; docs/contract.md ("Program choice")
// states the choice they make in prose, and `build/bench/cake_plan` lists it per shape.
#pragma once

#include <cstdint>

namespace cake {

// Hopper program choice: the swap programs (weights on wgmma's M side) on 64-row
// weight tiles for M <= kHopperSwapMaxM, and for M <= kHopperSwapNarrowMaxM when
// N <= kHopperSwapNarrowMaxN; on 128-row weight tiles for M <= kHopperSwapWideMaxM
// when N <= kHopperSwapWideMaxN.
inline constexpr int64_t kHopperSwapMaxM = 64;
// Up to kHopperSwapTokensMaxM tokens the 64-row weight tiles take 16 tokens, up to
// kHopperSwapTokens32MaxM 32 (a shallower token slice per stage: more weight bytes
// in flight per SM).
inline constexpr int64_t kHopperSwapTokensMaxM = 16;
inline constexpr int64_t kHopperSwapTokens32MaxM = 32;
// 33..64 tokens from K = kHopperHalfTokenTilePairsMinK on: the 32-token program on
// two token tiles, in CTA pairs sharing each weight tile by TMA multicast, where
// whole 64-row weight tiles in pairs are one wave on nearly every SM
// (kHopperTokenTilePairsMinFillPercent; sm90_program.cpp hopper_multicast): each CTA then
// streams half a weight tile from memory and half the tokens, on twice the SMs of
// the 64-token program's unsplit tiles, without split-K's hand-over. H200,
// 2026-12-01, r = 128, us, the plan before against pairs, best of two runs, N = 4096:
// M = 48, K = 6144 10.45 / 10.33, K = 8192 13.02 / 12.42, K = 14336 20.12 / 18.92,
// K = 16384 22.46 / 20.80; M = 64, K = 6144 10.63 / 10.21, K = 8192 12.69 / 12.29,
// K = 16384 21.17 / 20.44; M = 33 ... 56 alike, N = 3968 and 4224 alike; K = 4096
// 8.12 / 8.21 (M = 48). With fewer SMs busy they tied or lost: N = 3840 (120 CTAs),
// M = 48, K = 14336 18.00 / 18.76; N = 3584 (112), K = 8192 11.64 / 12.17;
// N = 3072 (96) 10.58 / 12.04.
inline constexpr int64_t kHopperHalfTokenTilePairsMinK = 6144;
inline constexpr int kHopperTokenTilePairsMinFillPercent = 93;
inline constexpr int64_t kHopperSwapWideMaxM = 192;
inline constexpr int64_t kHopperSwapWideMaxN = 4096;
// ... or there tiles of 64 tokens x 96 weight rows (fp8_hopper_64x96: the weights
// on wgmma's N side), where those are one wave on more SMs than the 128-row swap
// program's plan (with its split) uses. H200, 2026-12-01, r = 128, us, swap_128x64
// against 64 x 96, two runs each: N = 4096 (129 tiles against 96): M = 136 12.68 /
// 10.65, M = 160 12.87 / 10.70, M = 192 13.18 / 10.76; K = 14336 31.0-31.7 /
// 30.4-31.0; K = 1024 6.23-6.36 / 6.07-6.30; N = 3072 (96 tiles against 72):
// 11.25-12.13 / 9.81-10.75. Against split-K pairs on more SMs it loses: N = 2560
// (81 tiles against 120 CTAs) 9.48-9.77 / 9.77-10.57; N = 2304 (72 against 108)
// 9.37-9.67 / 8.92-10.32. Past one wave too: M = 192, N = 6144 17.5 against 15.4
// for the turned 192 x 128.
// From K = kHopperSwapWideTokenTilesMinK on, both give way to the 64 x 128 swap
// program (64-row weight tiles, the tokens as two token tiles of up to 128): per
// K block it streams fewer bytes per output than 64 x 96 and 128 x 64 tiles.
// H200, 2026-12-01, r = 128, us, best of two runs, the plan before against
// swap_64x128 (unsplit from N = 3072, split-K pairs at 2048): M = 136 / 160 / 192,
// N = 4096: K = 4096 10.64 / 10.64 / 10.75 against 10.32 / 10.40 / 10.51, K = 8192
// 19.72 / 20.26 / 20.96 against 16.92 / 17.24 / 18.32, K = 14336 30.42 / 31.02 /
// 31.30 against 27.10 / 27.35 / 27.82; N = 3072, K = 4096 10.20 / 10.55 / 11.04
// against 9.82 / 9.86 / 9.93, K = 8192 17.55 / 18.89 / 19.45 against 15.69 / 15.77 /
// 15.98; N = 2048, K = 4096 9.44 / 9.57 / 9.72 against 8.31 / 8.36 / 8.44. At
// K = 2048 it mostly loses: N = 3072 7.02 / 7.08 / 7.04 against 7.50 / 7.57 / 7.60,
// N = 4096 7.54 / 7.64 / 8.18 against 8.23 / 7.88 / 7.85. Side by side with the
// rule before, best of two runs, 36 shapes of M = 136 and 192, N = 768..4096,
// K = 4096 and 8192: 0.922 of its times (0.790-1.024); it lost 1-2.4% at N = 1792,
// K = 4096 (8.14 -> 8.32 at M = 136), N = 2816, K = 8192 (15.24 -> 15.60 at
// M = 192) and N = 3328, K = 4096 (M = 136, 10.05 -> 10.24).
// Not on narrow tiles of 40 rows (3/8 of wgmma's 64 rows idle, and 128 tokens
// each): N = 2560, M = 136 / 192, K = 4096 9.49 / 9.76 against 9.70 / 9.84, K = 8192
// 14.33 / 14.68 against 15.39 / 15.61 (48 rows at N = 1536 and 3072 gained).
inline constexpr int64_t kHopperSwapWideTokenTilesMinK = 4096;
inline constexpr int kHopperSwapWideTokenTilesMinRows = 48;
// Up to kHopperSwapNarrowMaxM tokens on at most kHopperSwapNarrowMaxN weight rows:
// the swap program on 64-row weight tiles 128 tokens wide (twice the CTAs of
// 128-row tiles, each weight tile read once).
inline constexpr int64_t kHopperSwapNarrowMaxM = 128;
inline constexpr int64_t kHopperSwapNarrowMaxN = 8192;
// ... except from K = kHopperWeightTilePairsMinK on where fp8_hopper_64x96 (64
// tokens x 96 weight rows on wgmma's N side) in CTA pairs on the two token tiles,
// sharing each weight tile by TMA multicast (cuBLASLt's 96 x 64 tiles in clusters
// of 2 there), is one wave of pairs on at least kHopperWeightTilePairsMinFillPercent
// of the SMs (sm90_program.cpp hopper_multicast): N = 4513..6336 on 132 SMs. Each CTA loads
// half a weight tile and its 64 tokens per K block, where 64-row weight tiles 128
// tokens wide load all 128 (and narrow ones leave a quarter of wgmma idle). H200,
// 2026-12-01, r = 128, best of two runs each, forced pairs / the plan before, over
// M = 65, 72, 96, 112, 128 and N = 4608, 4864, 5120, 5632, 6144, 6336: K = 4096
// 0.936-1.009 (M = 128, N = 6144 10.78 / 11.14 us), K = 14336 0.901-0.953; at
// K = 3584 (N = 4608) 0.956-1.004; at K = 2048 0.947-1.084 and K = 1024 0.987-1.145,
// so not there; N = 4096 (43 pairs, 65% of the SMs) 1.08-1.10 and 67 pairs or more
// (two waves) 1.33-1.62. Unpaired, the same tiles were 1.07-1.13 of the plan's
// times at K = 4096.
inline constexpr int64_t kHopperWeightTilePairsMinK = 4096;
inline constexpr int kHopperWeightTilePairsMinFillPercent = 72;
// ... except at short K: there the 64 x 64 swap program on token tiles of 64,
// unsplit, when its tiles fill more than half the SMs in one wave and K is at most
// kHopperTokenTilesMaxK. Each weight tile is then read by two CTAs (the second
// from L2) instead of split over a cluster of two, whose hand-over of the partial
// sums is a fixed cost (about 1.8 us at 128 tokens) that only a long K loop pays
// back. H200, 2026-12-01, r = 128, us, swap_64x128 (the rule above) against
// swap_64x64 unsplit, two runs each: M = 128, N = 4096: K = 2048 7.58 / 6.40,
// K = 4096 9.62 / 9.23, K = 6144 11.81 / 12.07, K = 8192 13.90 / 15.30; N = 3072
// 8.83 / 8.19; N = 2560 8.58 / 8.12; N = 4224 9.80 / 9.57; M = 72 and 96 alike
// (N = K = 4096: 9.38 / 8.85, 9.45 / 9.03); N = 2048 (64 tiles, half the SMs) 7.23 /
// 7.83.
inline constexpr int64_t kHopperTokenTilesMaxK = 4096;
// Those token tiles run in CTA pairs sharing their weight tile by TMA multicast
// (each CTA loads half of it into both: half the weight bytes per SM from L2) where
// whole 64-row weight tiles in pairs are one wave on nearly every SM
// (kHopperTokenTilePairsMinFillPercent; sm90_program.cpp hopper_multicast), from
// kHopperTokenTilePairsMinM tokens (the second token tile at least half full) up to
// K = kHopperTokenTilePairsMaxK, where in pairs they also beat the split program;
// from K = kHopperTokenTilePairsMinK on two whole token tiles (the pair's fixed
// cost, about 1 us, is paid back at about 40 ns per K block), past it with a
// partial second one. H200, 2026-12-01, r = 128, us, the plan before against
// pairs, best of two runs: M = 128, N = 4096: K = 3072 7.94 / 7.98, K = 4096
// 9.27 / 8.91, K = 5120 10.76 / 10.11, K = 6144 11.82 / 11.23, K = 8192 13.95 /
// 13.90; N = 4224, K = 4096 9.48 / 9.08; M = 112 / 100 / 96, N = 4096, K = 5120
// 10.67 / 10.40, 10.60 / 10.39, 10.56 / 10.38, but K = 4096 9.04 / 9.13,
// 9.06 / 9.11, 8.94 / 9.11; M = 72, K = 4096 8.89 / 9.04. With fewer SMs busy
// they lost or tied: N = 3840 (120 CTAs), M = 96, K = 6144 11.19 / 11.34; where
// the plan takes narrow tiles (N = 3584) M = 112, K = 4096 8.49 / 8.89.
inline constexpr int64_t kHopperTokenTilePairsMinM = 96;
inline constexpr int64_t kHopperTokenTilePairsMinK = 4096;
inline constexpr int64_t kHopperTokenTilePairsMaxK = 6144;
// From this M on, the 192 x 128 program (three consumer warpgroups).
inline constexpr int64_t kHopperWideTileMinM = 4096;
// Below that (and past the swap programs), the three-consumer program on 192-row
// tiles (fp8_hopper_192x128 along M, or fp8_hopper_swap_192x128 along N, whichever
// leaves the busiest SM fewer output elements; along M on ties) instead of
// fp8_hopper_128x128 when its busiest SM computes at most this percentage of the
// output elements the 128 x 128 tiling gives it: per element the three-consumer
// program is the faster one (H200, promotion every 64 K: M = 2048, N = 6144, equal
// work: 85.9 against 94.2 us; M = 2048, N = 28672, 102%: 467-469 against 506).
inline constexpr int64_t kHopperWideTileMaxWorkPercent = 105;
// The same with promotion every 128 K (K >= kHopperLongPromotionMinK), where the
// three-consumer program gains more per element (H200, 2026-11-30, r = 128, us,
// 192-row tiles against 128 x 128: 112.5% of the work, M = 2048, N = 4096,
// K = 4096 59.9 against 65.7, K = 14336 216.0 against 235.9; M = 2048, N = K = 8192
// 256.7 against 270.6; M = 1024, N = 8192 68.8 against 72.3; 107%, turned:
// M = 512, N = 28672 107.8 against 113.5, M = 1024 232.1 against 249.0; 150%,
// M = 512, N = 4096: 21.1 against 17.0).
inline constexpr int64_t kHopperWideTileMaxWorkPercentLongPromotion = 115;
// Past decode (M > kHopperSwapMaxM), the 64-row swap programs replace that choice
// when they leave the busiest SM at most this percentage of its K-block work (few
// tiles: M = 256, N = 1024, K = 4096 is 16 tiles of 128 x 128, 64 of 64 x 64).
inline constexpr int64_t kHopperSmallTileMaxWorkPercent = 50;
// Where the shape rule's plan splits K over few tiles, up to this K: a 128 x 64
// swap program (which one: kHopperUnsplitSwapWeightRowsMinRatio) unsplit, when its
// tiles are one wave and leave the busiest SM no more K-block work: the split's
// hand-over is a fixed cost a short K loop does not pay back. H200, 2026-12-01,
// r = 128, us, the split 128 x 128 plan against that program (the other swap program
// in brackets):
// M = 256, N = 4096: K = 2048 10.44 / 7.80 [8.42], K = 4096 12.98 / 10.74 [12.10],
// K = 6144 16.16 / 14.13, K = 8192 19.47 / 19.11, K = 14336 29.33 / 29.08; M = 193,
// N = 4224, K = 4096 13.04 / 10.69; M = 512, N = 2048: K = 4096 12.43 / 10.32
// [10.98], K = 6144 15.41 / 13.64, K = 8192 18.24 / 19.80; M = 1024, N = 1024,
// K = 4096 12.34 / 10.23 [10.45]; M = 2048, N = 512: K = 4096 12.26 / 10.32
// [11.73], K = 6144 15.24 / 13.83, K = 8192 17.94 / 19.05.
inline constexpr int64_t kHopperUnsplitSwapMaxK = 6144;
// Where N > M, the weights on the 64-row side (fp8_hopper_swap_64x128) from N = this
// times M; below, the tokens where their program fills at least as many SMs. H100 SXM
// (the twenty-seventh session after version 73,
// docs/results/h100-2026-12-06-unsplit-swap/): forced against the split 128 x 128
// plan, two passes, K = 7168 / 8192, swap 128 x 64 (swap 64 x 128 in brackets):
// M = 896, N = 1024 0.913 / 0.907 (1.031 / 1.030); M = 768, N = 1280 0.938 / 0.933
// (0.983 / 0.995); M = 640, N = 1536 1.005 / 1.019 (0.957 / 0.925); M = 576, N = 1536
// 1.062 / 1.063 (0.985 / 1.011). Side by side (scripts/plan-ab, two runs), swap
// 128 x 64 against swap 64 x 128 at K = 1024..6144: M = 896, N = 1024 (112 CTAs each)
// 0.898-0.987; M = 768, N = 1280 (120 each) 0.977-0.996; but M = 576, N = 1024 (72
// CTAs against 130) 0.918 at K = 1024, 1.070-1.102 from K = 3584, and M = 640,
// N = 1024 (80 against 130) 1.018-1.122 from K = 3584. Where N <= M, the weights'
// program on narrower weight tiles filling more SMs lost: M = 1280, N = 512 (130 CTAs
// against 80) 1.094-1.171 of the tokens' time, M = 1536, N = 512 1.164-1.229,
// M = 1024, N = 768 1.036-1.091. Before, the weights went on the 64-row side wherever
// N > M; on the H200 this moves 10 dense shapes (M = 768, N = 1280 and M = 896,
// N = 1024 at K = 1024..6144), not measured there.
inline constexpr int64_t kHopperUnsplitSwapWeightRowsMinRatio = 2;

// The other way round at long K: where the shape rule's 128 x 128 tiles are one
// partial wave unsplit, from this K the three-consumer 192 x 128 program with its
// split (CTA pairs over tiles that fit the resident pairs) when it leaves the
// busiest SM at most kHopperSplitWideTileMaxWorkPercent of the K-block work: the
// split's hand-over is paid back by a long K loop (serving-shape scan, version
// 36's session, H200, r = 128, us, the 128 x 128 plan / 192 x 128 forced:
// M = 384, N = 3584, K = 18944 54.79 / 45.33; M = 320, N = 4096, K = 14336
// 41.49 / 37.19; M = 512, N = 2560, K = 8192 26.00 / 23.83; at K = 4096 it lost:
// M = 320, N = K = 4096 14.81 / 16.48).
inline constexpr int64_t kHopperSplitWideTileMinK = 8192;
inline constexpr int64_t kHopperSplitWideTileMaxWorkPercent = 80;

// Token tiles fitted to the tokens, for kHopperFittedTokenTilesMinM < M <=
// kHopperFittedTokenTilesMaxM: the swap programs on 80 or 96 tokens
// (fp8_hopper_swap_128x80 / _128x96 in place of the 128 x 128 and 192-row
// programs, fp8_hopper_swap_64x80 / _64x96 in place of the 64-row swap programs),
// in CTA pairs sharing each weight tile where the pairs take no more waves, single
// CTAs only in one wave, when they leave the busiest SM at most
// kHopperFittedTokenTilesMaxWorkPercent of the chosen plan's K-block work.
// Between the grid's points the fixed widths leave the last wave partly empty
// (serving-shape scan, H200, r = 128, us, the plan before / fitted: M = 320,
// N = K = 4096 14.86 / 12.27, 128 tiles of 128 weight rows x 80 tokens in pairs
// against 96 of 128 x 128; M = 160, N = 8192, K = 2048 12.42 / 10.40; M = 160,
// N = 4096, K = 14336 26.81 / 22.46, 64 x 80 against 64 x 128 tiles; M = 192,
// N = 6144, K = 4096 15.41 / 13.44).
// At 83-90% of the work they lost by up to 7% below K = 7168 (M = 320, N = 8192,
// K = 1024: 10.60 / 11.33; M = 1024, N = 4608, K = 3584: 33.85 / 35.90) and won
// from it on in CTA pairs up to 512 tokens, where a longer K loop pays for the
// smaller tiles' lower speed per element (M = 160, N = 7168, K = 8192: 25.25 /
// 21.57; M = 320, N = 4096, K = 14336: 37.51 / 32.32; M = 320, N = 8192,
// K = 7168: 38.11 / 34.22): there the limit is
// kHopperFittedTokenTilesMaxWorkPercentLongK. They lost as single CTAs on several
// waves (M = 1024, N = 2560, K = 8192: 37.21 / 45.75; M = 640, N = 7168, K = 8192,
// where the plan before ran two regions: 71.60 for its 192 x 128 program on one
// region / 76.37), as pairs past 512 tokens (M = 1024, N = 7168, K = 8192: 102.02
// / 111.37) and as pairs at the same work (M = 384, N = 8192, K = 7168). Not up to
// 128 tokens, where the 64- and 128-token tiles fit (at 96 tokens the fitted tiles
// measured 0.84-1.03 of the plan's time over three calls).
// In place of a split plan (the 192 x 128 program split in two at long K,
// kHopperSplitWideTile*), from kHopperFittedTokenTilesLongK up to ...LongKMaxM
// tokens, unsplit tiles in pairs in no more waves also at the same work, unless the
// fitted weight tiles would then take the plan (version 52; the hand-over saved pays
// for the smaller tiles). Against version 51, three alternated runs per shape
// (docs/results/h200-2026-12-01-v51/experiments/16-*): 24 shapes of 128 weight rows x
// 96 tokens in pairs in place of 192 x 128 split in two, M = 176..384,
// N = 3584..8192, K = 8192..18944, 0.877-0.991 (M = 192, N = 7168, K = 8192 25.56 /
// 22.95; M = 384, N = 4096, K = 16384 47.74 / 42.50); two shapes whose second region
// moved with it 0.975 / 0.994. Where the 128 x 80 weight tiles then took the plan in
// place of 128 x 144 split in two it lost (M = 352..512, N = 2304 / 3072:
// 1.035-1.214).
inline constexpr int64_t kHopperFittedTokenTilesMinM = 128;
inline constexpr int64_t kHopperFittedTokenTilesMaxM = 1024;
inline constexpr int64_t kHopperFittedTokenTilesMaxWorkPercent = 80;
inline constexpr int64_t kHopperFittedTokenTilesLongK = 7168;
inline constexpr int64_t kHopperFittedTokenTilesLongKMaxM = 512;
inline constexpr int64_t kHopperFittedTokenTilesMaxWorkPercentLongK = 90;
// Version 54: below kHopperFittedTokenTilesLongK, from ...ManyWavesMinK, the same 90%
// in pairs up to ...LongKMaxM tokens in place of the 192 x 128 program on
// ...ManyWavesMinWaves waves or more (whose last wave is then a small share), unless
// the fitted weight tiles would take that plan (docs/results/h200-2026-12-01-v53/
// experiments/21-*, against version 53, three alternated runs per shape): 96 tokens in
// pairs at M = 176 / 192, N = 37888, K = 3584..6144 0.842-0.944 (M = 192, K = 4096
// 70.64 / 59.50); M = 352 / 384, N = 28672 / 37888 0.886-1.007; every plan it moves
// (18 dense, 3 serving) measured, geomean 0.938. The candidate without those limits
// lost in place of 128 x 144 (M = 352..512, N = 13824 / 18944: 1.025-1.136), of two
// regions (M = 448, N = 14336: 0.996-1.110) and at K = 1024 / 2048 (M = 176 / 352 /
// 384: 1.023-1.139; M = 192 / 288 / 320 won 0.876-0.978).
inline constexpr int64_t kHopperFittedTokenTilesManyWavesMinK = 3584;
inline constexpr int64_t kHopperFittedTokenTilesManyWavesMinWaves = 3;

// Token tiles of 160 on 128 weight rows (fp8_hopper_swap_128x160, cuBLASLt's tile at
// M = 320 on N >= 7168), past kHopperTokenTiles160MinM tokens: in place of a
// plan of one program, unsplit in no more waves, when they leave its busiest SM no
// more K-block work. A 160-token tile reads each weight row once for twice the
// tokens of the 80-token tiles, and its wgmma (64 x 160) carries less operand
// traffic per output than their 64 x 80. Forced against the plan before it (H200,
// r = 128, three passes, medians): at equal work in fewer waves M = 320,
// N = 7168, K = 8192 0.898 (80-token tiles in pairs on two waves), N = 14336 0.944,
// M = 320, N = 8192, K = 7168 0.896, M = 160, N = 14336, K = 8192 0.914; at less
// work M = 320, N = 8192, K = 3584 / 1024 0.883 / 0.940 (192 x 128, one wave),
// M = 160, N = 28672, K = 4096 0.941 (192 x 112, two); at more work M = 320,
// N = 28672, K = 4096 0.994 (four waves in pairs against seven of 80-token pairs),
// M = 640, N = 7168, K = 8192 1.089 (against 128 x 144 on two waves). The rule
// against version 63 (plan-ab, three alternated runs, 23 moved shapes): geomean
// 0.943, 0.873-0.995 (M = 640, N = 37888, K = 2048 109.5 -> 95.8 us in pairs on
// nine waves; M = 288, N = 8192, K = 3584 19.24 -> 17.13; M = 136, N = 13824,
// K = 7168 34.18 -> 30.99) but in more waves: M = 896, N = 14336, K = 1024 1.127
// (six against five of the turned 192 x 128), which the wave condition excludes.
// Version 66, the same rule past 1024 tokens up to 2560, against version 65, three
// alternated runs: 0.915-1.001, geomean 0.969, over 8 moved shapes (M = 2560, N = 3072, K = 2048 31.67 -> 28.99 us, in pairs on three
// waves against 192 x 128; M = 2048, N = 1280, K = 12288 50.42 -> 47.85 against
// 128 x 160; M = 1280, N = 8192, K = 2048 39.38 -> 37.85 against 128 x 128 in
// pairs). Split plans stay out: one wave of 160-token tiles split in two against
// unsplit 80-token pairs at the same work measured 1.005-1.408 over 10 shapes
// (M = 160, N = 8192, K = 1024 7.36 -> 10.37 us). Version 67, without an upper
// bound: past 2560 tokens the sweeps' plans it moves are M = 3072 on N = 768 (K =
// 1024..18944) and M = 3072, N = 2304, K = 1024 (none at M >= 4096); against version
// 66, three alternated runs, 12 shapes: 0.931-1.002, geomean 0.972 (M = 3072,
// N = 768, K = 1024 9.75 -> 9.06 us, one wave of 120 tiles against 120 of
// 128 x 160; M = 3072, N = 2304, K = 1024 22.90 -> 21.32, three waves in pairs
// against four of 128 x 128).
inline constexpr int64_t kHopperTokenTiles160MinM = 128;

// Token tiles tight on the tokens: past decode, from
// kHopperTightTokenTilesMinK, up to kHopperTightTokenTilesMaxM tokens, where the
// plan chose the 64-row swap programs on 64 tokens, on one tile of 128, or 128-row
// weight tiles on 64 tokens split in four (fp8_hopper_swap_128x64), the 64-row swap
// program on 80, 96 or 128 tokens that covers M in the fewest token tiles (then
// the least padding), with its own split and tiles, in one wave in place of one.
// H200, r = 128, each shape alternated three times with the plan before, us, before /
// tight (medians; docs/results/h200-2026-12-01-v50/experiments/):
//  - one tile of 80 / 96 tokens in place of 128 at M = 65..96: M = 96, N = 1280,
//    K = 8192 9.14 / 8.11; M = 80, N = 768, K = 8192 8.39 / 6.85; M = 65, N = 2304,
//    K = 14336 14.97 / 13.23;
//  - two tiles of 80 / 96 tokens split in two in place of 128 x 64 tiles split in
//    four: M = 160, N = 1280, K = 8192 11.08 / 8.95; M = 192 11.35 / 9.56 (128 x 64
//    split in two alone: 0.96 of four);
//  - tiles of 128 (or 96) tokens split in two in place of 64-token tiles: M = 224,
//    N = 1280, K = 14336 19.95 / 15.52; M = 320, N = 1024, K = 18944 25.48 / 19.78;
//    M = 576, N = 512, K = 18944 25.26 / 21.47.
// Of the 423 plans it moves in the dense sweep (scripts/plan-diff), 116 were measured:
// 0.777-1.026 of the times before, geomean 0.894, 102 of them at 0.98 or less; 38 of
// them in a second sample drawn after the limits below were set: 0.888.
// The limits, where the first two samples lost: fewer SMs on more than
// kHopperTightTokenTilesFewerSmsMaxWeightBytes of weights, which then stream at the
// memory's rate (M = 96, N = 3584, K = 18944 1.027; N = 7168, K = 8192 1.014);
// more tensor work on the busiest SM, counting the 64 rows wgmma computes for narrow
// tiles (M = 320, N = 1536, K = 8192 1.084: 128-token tiles unsplit; M = 192,
// N = 1024, K = 8192: 8.96 / 9.41, 96-token tiles on 64 SMs against 132), except in
// place of the four-way split; a larger split leaving fewer than
// kHopperTightTokenTilesMoreSplitMinKBlocks K blocks per CTA (M = 384, N = 512,
// K = 8192 9.13 / 10.52; M = 320, N = 512, K = 12288 1.055); in place of fitted
// token tiles (M = 208, N = 512, K = 16384 1.041), of two tiles of 128 (M = 176,
// N = 1536, K = 16384 1.080), of 128 x 64 tiles split in two (M = 176, N = 2560,
// K = 12288 1.062; 0.96-1.01 elsewhere); past kHopperTightTokenTilesMaxM tokens
// (M = 896 / 1024, N = 512 1.04-1.07).
// Version 51 took the rule from K = 8192 down to 4096 (docs/results/h200-2026-12-01-v51/):
// a scan at K = 4096 / 6144 found the same gains where the split stays or shrinks
// (one tile of 96 in place of 128, M = 96, N = 1280, K = 4096 0.880; two of 80 split
// in two in place of 128 x 64 split in four, M = 160 0.749), and a two-way split paying
// from kHopperTightTokenTilesTwoWayMinKBlocks K blocks per CTA up to
// kHopperTightTokenTilesTwoWayMaxM tokens (K = 6144: M = 224 / 256 / 320, N = 1024-1280
// 0.914-0.936; K = 7168: M = 208..384 0.879-0.968; but M = 448..640, N = 768 / 1024,
// K = 7168 0.992-1.047, and at 16 K blocks per CTA M = 256 / 384 / 576, K = 4096
// 1.011-1.070), or at any length where it also cuts the tensor work (one tile of 80 / 96
// tokens in place of two of 64: M = 65..80, N = 4096, K = 4096 0.974-0.978, M = 72,
// N = 2560 0.858; M = 96, N = 3584 1.006). Not in place of token tiles in multicast
// pairs (kHopperTokenTilePairs*, their own measured rule). Of the 230 plans it moves
// beyond version 50's, 67 were measured, three alternated runs each: 0.758-1.006,
// geomean 0.911, none slower by more than 2%.
// Version 53 took it down to K = 2048 (docs/results/h200-2026-12-01-v53/): a forced scan
// at K = 2048 / 3072 found one tile of 80 / 96 tokens in place of 128 at 0.79-0.90
// (M = 65..96, N = 768 / 1280 split in four; N = 4608 unsplit), two of 80 / 96 in place
// of 128 x 64 tiles split in four at 0.73-0.90 (M = 144..192, N = 768 / 1280); but the
// two-way split that cuts the tensor work lost there at 8 K blocks per CTA (M = 65..96,
// N = 2304, K = 2048 1.054-1.132) and, at 14, in place of 64-token tiles of 48 to 64
// weight rows (M = 65 / 96, N = 3072..4096, K = 3584 0.976-1.049), so that exception
// holds from K = kHopperTightTokenTilesTwoWayWorkCutMinK only (version 51's range). Of
// the 129 plans it moves beyond version 52's, 45 were measured, three alternated runs
// each: 0.779-0.991, geomean 0.878.
// Version 55 took it down to K = 512 (docs/results/h200-2026-12-01-v55/): a forced scan
// of 19 of the plans it moves at K = 1024 measured 0.729-0.946, and of the 57 it moves
// over the dense and serving shapes (K >= 1024) plus 61 at K = 512 / 768, 42 more were
// measured against version 54, three alternated runs each: 0.723-0.979, geomean 0.858
// (M = 160, N = 1024, K = 768 6.14 -> 4.44 us; M = 65, N = 512, K = 512 5.43 -> 4.28).
inline constexpr int64_t kHopperTightTokenTilesMinK = 512;
inline constexpr int64_t kHopperTightTokenTilesMaxM = 768;
inline constexpr int64_t kHopperTightTokenTilesFewerSmsMaxWeightBytes = int64_t{40} << 20;
inline constexpr int64_t kHopperTightTokenTilesMoreSplitMinKBlocks = 32;
inline constexpr int64_t kHopperTightTokenTilesTwoWayMinKBlocks = 24;
inline constexpr int64_t kHopperTightTokenTilesTwoWayMaxM = 384;
inline constexpr int64_t kHopperTightTokenTilesTwoWayWorkCutMinK = 4096;

// Weight tiles fitted to the weights: past decode (kHopperSwapMaxM tokens, where the
// plan leaves the swap programs), where the plan is the 128 x 128 or a 192-row program
// (in one region or two), fp8_hopper_128x112 / _128x144 / _128x80 (128 tokens by
// 112 / 144 / 80 weight rows) when they leave the busiest SM at most
// kHopperFittedWeightTilesRegionsMaxWorkPercent of both regions' K-block work in place
// of two regions; in place of one program, at most
// kHopperFittedWeightTilesMaxWorkPercent of its work in no more waves where it has at
// most kHopperFittedWeightTilesMaxWaves waves, or at most
// kHopperFittedWeightTilesManyWavesMaxWorkPercent of it in any number of waves. H200,
// r = 128, us, the plan before / fitted: one wave, M = 384, N = 4608, K = 3584
// 17.1 / 14.6 (126 tiles of 128 x 112 against 108 of 128 x 128, 7/8 of the work),
// M = 384, N = 6144, K = 4096 22.5 / 19.1 (129 of 128 x 144 against 96 of 192 x 128,
// 3/4); two waves each, M = 1024, N = 4608, K = 3584 33.6 / 29.2; in place of two
// regions at 7/8, M = 512, N = 14336, K = 8192 119.1 / 102.2; more waves at 7/9,
// M = 2048, N = 3584, K = 18944 263.3 / 224.9 (4 of 128 x 112 against 3 of 192 x 128).
// At 7/8 on more waves than one program's they were as fast or slower in version 39's
// session (M = 384, N = 14336, K = 8192: 0.96-1.05 of its time over two calls;
// M = 384, N = 28672, K = 4096 0.98-1.00; from K = 8192 see ...LongK below), and at
// 11/12 (the 176-row tile tried alongside) no faster. From 65 tokens (the swap
// programs' range ends at 64): 28 shapes of 72..128 tokens on N = 10240..28672, old
// and new plan alternated twice, 0.931-0.984 of the old plan's times (geomean 0.959),
// e.g. M = 96, N = 12288, K = 4096 19.33 / 18.00; M = 128, N = 28672, K = 4096
// 37.7 / 37.0 (two waves of 128 x 112 against two of 128 x 128).
// Since version 60 also fp8_hopper_192x112 (192 tokens by 112 weight rows, three
// consumer warpgroups), under the same limits: 7/8 of the work of 192 x 128 tiles
// where those leave SMs idle in their last wave. H200, 2026-12-02, r = 128, version
// 59's plan / 60's, three alternated runs, medians of the per-run ratios, 34 of the
// 461 moved plans: one wave, M = 768, N = 3584, K = 18944 0.894 (89.99 -> 80.47 us,
// 128 tiles against 112; the serving sweep's worst point against the unfused path),
// M = 3072, N = 768, K = 14336 0.860, M = 2048, N = 1280, K = 8192 0.960 (132
// against 110), K = 1024 0.923-0.940; two waves (M = 160 / 192, N = 28672, K = 4096
// 0.957 / 0.966; M = 3072, N = 1792, K = 4096 0.925); in place of two regions
// (M = 2048, N = 2560, K = 8192 0.960, K = 4096 0.964 / 1.011 in two calls); in
// place of three waves of 128 x 112 pairs at the same work from K = 8192 0.940-0.986
// (M = 3072, N = 1792, K = 8192 1.062 / 0.878 in two calls; M = 1536, N = 3584,
// K = 8192 1.012); as the split second region of a cut 0.974-0.990. Geomean 0.956.
// Since version 61 also fp8_hopper_128x160 (128 tokens by 160 weight rows, one set),
// 5/6 of 192 x 128 tiles' work, taken over 192 x 112 where it leaves less (20480
// elements a tile against 21504). Version 60's plan / 61's, same method, 19 of the
// 311 moved plans: one wave in place of 192 x 128, M = 1024, N = 2560, K = 8192 0.905
// (36.59 -> 33.12 us), M = 1280, N = 2048, K = 4096 0.949; of 192 x 112, M = 2048,
// N = 1280, K = 8192 0.960, M = 3072, N = 768, K = 4096 / 14336 1.004 / 0.939; of the
// turned 192 x 128, M = 224 / 256, N = 10240 0.939 / 0.952; two waves in place of
// 192 x 128, M = 1024, N = 5120, K = 4096 0.908; of 192 x 112, M = 2048, N = 2560,
// K = 8192 0.978, K = 4096 1.025 / 1.039 (two calls); three waves in pairs in place
// of two regions 0.940-0.971 (M = 6144, N = 1280, K = 4096 1.053 / 0.971 in two
// calls), of 192 x 128 pairs (M = 640, N = 12288, K = 8192) 0.879; in place of three
// waves of 128 x 112 pairs (M = 1024, N = 5120, K = 8192) 1.010. Geomean 0.960.
inline constexpr int64_t kHopperFittedWeightTilesMaxWaves = 2;
inline constexpr int64_t kHopperFittedWeightTilesMaxWorkPercent = 88;
inline constexpr int64_t kHopperFittedWeightTilesManyWavesMaxWorkPercent = 80;
// Version 68: the 128 x 160 tiles (one partial-sum set with the carry) on any number
// of waves up to ...160ManyWavesMaxWorkPercent of the plan's work, from
// kHopperFittedWeightTiles160MinK below ...LongK. Per element they ran 1.07-1.14 of
// the 192-row programs' time on many waves (H200, r = 128, forced against version
// 66's plans, three passes, docs/results/h200-2026-12-02-v66b/experiments/03-*): at
// 5/6 of the work M = 896, N = 28672, K = 4096 0.908 (ten waves in pairs against
// ten of the turned 192 x 128), M = 896, N = 14336, K = 2048 0.908, M = 768,
// N = 10240, K = 4096 0.947; at 0.902 M = 896, N = 37888, K = 4096 0.973; at
// 0.917-0.925 1.003-1.011 (M = 1024, N = 28672, K = 4096; M = 2560, N = 10240,
// K = 4096), 0.980 (M = 2048, N = 14336, K = 8192). The limit at every K against
// version 67 (plan-ab, three alternated runs, 24 of its 59 moved shapes, `04-*`):
// from K = 2048 below 8192 0.902-0.988 (M = 896, N = 28672, K = 4096 216.1 ->
// 195.0 us; M = 640, N = 28672, K = 4096 144.5 -> 130.9, where the 160-token tiles
// then take it), but at K = 1024 1.012-1.082 (M = 896, N = 14336 34.6 -> 37.4) and
// from K = 8192, in place of 128 x 112 pairs or of two regions, 0.893-1.070
// (M = 576, N = 12288, K = 18944 1.070; M = 896, N = 28672, K = 18944 1.028). As
// landed, against version 67 over all 26 moved shapes: geomean 0.932, 24 of them
// 0.879-0.966, and M = 576, N = 12288, K = 6144 / 7168 1.038 / 1.054 (1.027 / 1.024
// in a second call, within that family's spread; `05-*`).
inline constexpr int64_t kHopperFittedWeightTiles160ManyWavesMaxWorkPercent = 90;
inline constexpr int64_t kHopperFittedWeightTiles160MinK = 2048;
// From K = kHopperFittedWeightTilesLongK, where no cut into two regions takes the
// plan either, fitted tiles on more waves up to ...LongKMaxWorkPercent of its work:
// there the fill and epilogue of the extra wave weigh less against the K loop.
// H200, 2026-12-01, r = 128, version 48's plan / this rule, three alternated runs,
// medians of the per-run ratios: three waves of 128 x 112 in CTA pairs against two
// of 192 x 128 (7/8 of the work), M = 384, N = 14336, K = 8192 / 18944 0.942 /
// 0.932; M = 512, N = 10240, K = 8192 / 14336 0.933 / 0.920; M = 768, N = 7168,
// K = 8192 / 18944 0.912 / 0.934; M = 1024, N = 5120, K = 8192 / 14336 0.833 /
// 0.938; M = 1536, N = 3584, K = 8192 / 18944 0.940 / 0.949; ten waves of 128 x 144
// against nine of the turned 192 x 128 (5/6), M = 640, N = 37888, K = 8192 0.891
// (380 -> 340 us). Against cuBLASLt those shapes went from 1.16-1.27 to 1.05-1.18.
// Below K = 8192 the 80% limit stands (M = 384, N = 28672, K = 4096 at 7/8:
// 0.98-1.00, version 39's session). Since versions 60 and 61 most of those shapes
// run two waves of 192 x 112 or 128 x 160 instead (the same work on fewer waves,
// measured above); M = 1792, N = 3072 keeps this rule's three waves.
inline constexpr int64_t kHopperFittedWeightTilesLongK = 8192;
inline constexpr int64_t kHopperFittedWeightTilesLongKMaxWorkPercent = 88;
// Two regions are two launches, each with its fill and drain, and their work is
// counted with the second region on the program it would run without fitted tiles
// (it may take them, planned as a problem of its own). One launch of fitted tiles
// measured faster up to 97% of that work (88% before): H200, 2026-12-01, r = 128,
// best of two runs each, us, two regions / fitted: M = 72, N = 37888, K = 2048
// 31.42 / 27.51; M = 96, K = 3584 45.60 / 41.07; M = 128, K = 3584 46.57 / 42.53;
// M = 120, K = 8192 88.08 / 83.96; M = 200, N = 18944, K = 3584 35.12 / 31.23;
// M = 577, N = 7168, K = 4096 35.58 / 31.64; M = 1729, N = 6144, K = 4096 81.31 /
// 73.54; M = 641, N = 14336, K = 8192 161.9 / 153.6; M = 1281, N = 5120, K = 3584
// 45.24 / 42.56; M = 1153, N = 10240, K = 8192 185.7 / 176.5; as fast at M = 1537,
// N = 4096, K = 4096 46.75 / 46.32 and M = 1025, N = 12288, K = 4096 98.2-105.7 /
// 100.2-104.0.
inline constexpr int64_t kHopperFittedWeightTilesRegionsMaxWorkPercent = 97;
// fp8_hopper_128x80 (80 weight rows) takes a plan only where its tiles make one
// wave: few weight rows at long K, where the plan before split 192 x 128 tiles over
// CTA pairs on 120 SMs, and few tokens on N = 10240 (one wave of 128 tiles in
// place of 92 of 128 x 112). H200, 2026-12-01, r = 128, best of two runs each, us,
// the plan before / 128 x 80: M = 1024, N = 1280, K = 14336 36.90 / 32.71,
// K = 18944 51.34 / 45.75; M = 512, N = 2560, K = 8192 23.87 / 20.97, K = 14336
// 39.35 / 34.08; M = 640, N = 2048, K = 8192 24.08 / 21.49; M = 128, N = 10240,
// K = 8192 29.95 / 26.10; M = 1280, N = 1024, K = 4096 12.97 / 11.68. On more
// waves (through the many-waves limit) the wider tiles' speed per element won:
// M = 2048, N = 3840, K = 8192 113.7 / 140.7; M = 6144, N = 1280, K = 4096
// 54.4 / 62.9; M = 1536, N = 5120, K = 4096 59.1 / 65.2.
// Since version 44 they also take the place of the 128-row token tiles
// (fp8_hopper_swap_128x80 / _128x96, fitted to the tokens) under the same limits,
// the 112 / 144 rows not: at 248..256 and 488..512 tokens on N = 1280..5120 (best
// of three alternated runs, us, token tiles / 128 x 80): M = 256, N = 4608,
// K = 3584 13.07 / 11.09, K = 8192 26.63 / 21.61; M = 256, N = 5120, K = 1024
// 7.91 / 7.00; M = 512, N = 2560, K = 1024 8.06 / 6.67, K = 4096 12.96 / 11.69;
// M = 256, N = 2560, K = 8192 16.21 / 14.32 and M = 512, N = 1280, K = 8192
// 15.44 / 14.42 (both split over CTA pairs). 128 x 144 split in pairs in place of
// the token tiles at M = 256, N = 4608 lost at short K (K = 2048 9.47 / 11.28).
// Since version 45 one wave of them, unsplit, also takes the place of the 64-row
// swap programs (fp8_hopper_swap_64x64 / _64x128) where those run on two waves or
// more past decode (M > kHopperSwapMaxM), though the estimate gives the busiest SM
// 25-43% more K-block work: 129..192 tokens on N = 4608 / 5120, 264..320 on 3072
// (best of three alternated runs, us, swap 64 x 64 / 128 x 80): M = 136, N = 4608,
// K = 8192 23.58 / 18.72; M = 192, N = 5120, K = 14336 41.77 / 32.48; M = 272,
// N = 3072, K = 4096 13.65 / 10.86; M = 192, N = 4608, K = 3584 12.56 / 10.56; at
// K = 1024 0.91-0.97.
inline constexpr int64_t kHopperFittedWeightTiles80MaxWaves = 1;
// Since version 70 the same one wave, split over CTA pairs, also takes the place of
// the 128-row swap program (fp8_hopper_swap_128x64) split over K, from
// K = kHopperFittedWeightTiles80SplitSwapMinK, where it runs on as many SMs or more:
// 129..192 tokens on N = 2304 / 2560 (two token tiles of 128 x 80 against three of
// 64 tokens x 128 weight rows). H200, r = 128, forced, three passes, swap 128 x 64 /
// 128 x 80, both split in two, us: M = 136, N = 2560, K = 16384 24.73 / 20.81;
// M = 192, N = 2560, K = 16384 26.23 / 23.16; M = 192, N = 2304, K = 14336
// 21.90 / 18.88; M = 160, N = 2304, K = 8192 14.00 / 12.57; M = 144, N = 2560,
// K = 8192 14.00 / 12.80 (M = 160 / 192 there 0.912 / 0.904 in another call); level
// at K = 4096 (0.989-1.000), slower at K <= 2048 (1.06-1.10).
inline constexpr int64_t kHopperFittedWeightTiles80SplitSwapMinK = 6144;
// Their one wave runs in CTA pairs from this many token tiles on at
// K >= kHopperWeight80PairsMinK where the pairs are one wave too. Since version 63
// the pairs share the weight tile, lying along P (sm90_program.cpp, hopper_multicast), and walk
// along Q like single CTAs (kHopperWeight80AlongQ*): the token tile, read by every
// CTA of a row, is merged in the L2, and the reads from L2 fall (M = 512, N = 2560,
// K = 8192 under the profiler: 3.45 M sectors against 3.97 M single along Q and
// 5.34 M single down P; cuBLASLt's 80 x 128 pairs 2.8 M). H200, r = 128, forced,
// three passes, us: M = 512, N = 2560, K = 8192 single along Q 20.70, pairs 19.48
// (0.941); M = 1024, N = 1280, K = 8192 pairs down P 22.12, along Q 19.46 (0.880).
// Version 46's pairs shared the token tile, from seven token tiles (M = 1024,
// N = 1280, K = 8192 single / pairs 23.21 / 20.18; M = 688, six, 1.069).
inline constexpr int64_t kHopperWeight80PairsMinTokenTiles = 3;
inline constexpr int64_t kHopperWeight80PairsMinK = 8192;
// From this K on, over at least kHopperWeight80AlongQMinTokenTiles token tiles
// (single or in pairs) or split over CTA pairs, their tiles walk along Q first
// (raster group 1: CTAs launched together share the token tile) instead of down 8
// token tiles. Those one-wave K loops are bound by the L2's reads, not by the SM
// clock (M = 512, N = 2560, K = 8192 under the profiler: 33.4 k cycles at 1.27 GHz,
// 45.5 k at 1.76, the same microseconds; cuBLASLt's 80 x 128 pairs
// 29.2 k / 30.2 k), and the order changes how many of those reads the L2 merges.
// H200, version 61 against the rule on all of them, r = 128, three alternated runs
// (plan-ab), B / A: from three token tiles 0.935-1.005 (M = 448, N = 2304,
// K = 16384 0.935; M = 512, N = 2560, K = 8192 0.964, K = 18944 0.938; M = 640,
// N = 2048 0.962; M = 1280, N = 1024 0.976; M = 320, N = 3072, K = 14336 1.005),
// split over pairs 0.954-0.975 (M = 256, N = 2560, K = 8192; M = 512, N = 1280
// 0.955); two token tiles unsplit 1.013-1.021 (M = 160, N = 5120, K = 14336;
// M = 192 / 256, N = 4608), so not there. Below K = 8192 (M = 256, N = 4608,
// K = 3584 1.018) neither, nor in version 62's pairs sharing the token tile
// (M = 1024, N = 1280 1.086); the other programs' one-wave serving plans 0.95-1.06
// either way (forced): no rule for them.
inline constexpr int64_t kHopperWeight80AlongQMinK = 8192;
inline constexpr int64_t kHopperWeight80AlongQMinTokenTiles = 3;
// The 128 x 112 program on two token tiles (129..256 tokens) from this K on, on
// at most kHopperWeight112PairsMaxWaves waves, runs in CTA pairs sharing the
// weight tile (lying along M) where the pairs take no more waves. Its one-wave K
// loop is paced by the bytes the SMs pull from L2 (M = 256, N = 7168, K = 8192
// under the profiler: 53.1 k cycles, 6.2 M sectors read; the pairs 48.8 k, 4.3 M;
// cuBLASLt's 112 x 128 tiles in clusters of two sharing the weight tile 42.8 k,
// 4.1 M). H200, r = 128, forced against the plan's single CTAs, three passes,
// medians (the session after version 70): M = 256, N = 7168, K = 8192 0.968 /
// 0.978 in two scans; N = 14336, K = 8192 (two waves) 0.949; N = 13824 1.004;
// N = 14336, K = 16384 0.994; at K = 4096 N = 6144 / 6400 1.016 / 1.013 and
// N = 13824 0.982, K = 2048 1.049, so not below 8192. On four token tiles the
// pairs measured 0.986-1.054 (M = 512, N = 3584 / 7168, K = 8192 / 18944) and
// 1.034 at M = 512, N = 3328, K = 4096: no rule there. The rule against version
// 70's plan (version 71, the plan between two runs of the old one): K = 8192 on
// one wave 0.936-0.968 (M = 256, N = 7168 / 6400, M = 208, N = 7168), two waves
// 0.916-0.983, K = 14336..18944 0.990-0.999.
inline constexpr int64_t kHopperWeight112PairsMinK = 8192;
inline constexpr int64_t kHopperWeight112PairsMaxWaves = 2;
// Boards with slower DRAM (plan()'s dram_gbps, at most kHopperSlowDramMaxGbps: the
// H100 SXM, not the H200) pair plans the H200 runs single
// (sm90_choice.cpp plan_sm90_board). There a wave of single CTAs is paced by what L2
// delivers: H100 SXM (version 76, 2026-12-05, r = 128,
// docs/results/h100-2026-12-05-v76/), M = 512, N = 3584, K = 18944 (single 128 x 112)
// under the profiler: 117.9 k cycles against cuBLASLt fast's 78.9 k at the same clock
// (1.69 / 1.66 GHz) and DRAM bytes (79.0 / 77.6 MB), the SMs pulling 565.6 MB through
// L2 against cuBLASLt's 275.8 (its clusters of two share one operand), tensor pipe
// active 63.7% against 90.9%.
inline constexpr int kHopperSlowDramMaxGbps = 4000;
// 1. One wave of single 128 x 112 / 128 x 128 CTAs over two or more token tiles and
// at least as many weight tiles, from this K on: CTA pairs sharing the weight tile
// (lying along M) where the pairs are one wave too.
//  - 128 x 112 (since 208aa60): forced pairs took M = 512, N = 3584, K = 18944 from
//    68.6-74.9 us to 59.4-61.9 over four passes (the H200 read 1.054 there,
//    kHopperWeight112Pairs* above). Its 18 moved shapes against the plan before it
//    (three passes, docs/results/h100-2026-12-05-pairs/): the old plan took 1.111 of
//    the rule's time at K = 18944 (seven one-wave shapes, 0.996-1.196), 1.001 at
//    K = 16384 (seven, 0.963-1.047) and 1.015 on four second regions.
//  - 128 x 128 (the sixteenth session after version 73, scripts/plan-ab, two runs,
//    docs/results/h100-2026-12-05-candidate-v3/): 13 moved shapes at K = 16384 /
//    18944, 0.948-1.023 of the single CTAs' time (M = 448, N = 4096, K = 18944 0.948;
//    M = 896, N = 2048, K = 16384, seven token tiles, 1.023), and earlier runs
//    (docs/results/h100-2026-12-05-candidate-v2/) 0.947-1.011 on four more.
//  - From K = 14336 since version 81 (the thirty-sixth session after version 73,
//    docs/results/h100-2026-12-07-weight-pairs-14336/, H100 SXM): all 25 dense shapes
//    it moves, scripts/plan-ab against single CTAs, three runs, 0.976 (0.908-1.017,
//    11 faster, none slower by more than 2%; M = 256, N = 8192 59.91 -> 54.33 us; the
//    grid's M = 512, N = 4096 53.79 -> 51.75, 0.903 forced on another H100; seven
//    token tiles, M = 896, N = 2048, 1.017). An earlier board read 0.975-1.049 there
//    (candidate-v2), the 1.049 at the same seven-tile shape. Not below: from 8192 1.017
//    over nine shapes. Not on tall shapes (more token tiles than weight tiles): M = 2560,
//    N = 768, K = 14336 1.044 / 1.045 and M = 1792, N = 1024, K = 12288 1.045.
inline constexpr int64_t kHopperSlowDramWeightPairsMinK = 14336;
// 2. Two waves of single CTAs over two or more token tiles, from this K on, where the
// pairs take two waves too:
//  - 192 x 112 / 192 x 128: CTA pairs the program's usual way (sharing the token
//    tile); on the H200 from kHopperMulticastMinWaves only.
//  - 128 x 112 / 128 x 128 over at least as many weight tiles as token tiles: pairs
//    sharing the weight tile, as in 1 (the seventeenth session after version 73,
//    docs/results/h100-two-wave-weight-pairs/, scripts/plan-ab against single CTAs,
//    three runs): K = 12288..18944 0.802-0.992 over eight shapes (M = 512, N = 8192,
//    K = 18944 154.47 -> 124.11 us; M = 448, N = 7168, K = 18944 0.834; M = 896,
//    N = 3584, K = 18944 0.849; M = 512, N = 6400, K = 14336 0.894; second regions
//    0.934 / 0.992); at K = 8192 0.977-1.038 over six (M = 2048, N = 8192, its second
//    region, 1.038; M = 896, N = 3584 1.020), so not below this K.
// The 192-token programs, forced against the plan (two passes, medians;
// docs/results/h100-2026-12-05-candidate-v3/two-wave-pairs-scan.txt): 192 x 112 M = 1536, N = 3584, K = 18944 0.895 (0.869
// in an earlier scan), M = 3072, N = 1792, K = 16384 0.931, M = 768, N = 7168,
// K = 18944 0.933, M = 384, N = 14336, K = 16384 0.984; 192 x 128 M = 4096, N = 1536,
// K = 18944 0.905, M = 2048, N = 3072, K = 18944 0.923, M = 1536, N = 4096, K = 14336
// 0.959, M = 3072, N = 2048, K = 12288 0.963, M = 768, N = 8192, K = 16384 0.997. Not
// on one token tile (M = 192, N = 28672, K = 18944: 1.010).
// The head region of a two-region plan pairs as one region would (the eighteenth
// session after version 73, docs/results/head-pairs-rule/, scripts/plan-ab against
// the plan that left heads single, three runs): 14 of the 54 moved shapes, all heads
// of 192 x 128 on two waves, 0.904-1.019, geomean 0.977 (M = 4096, N = 2560,
// K = 18944 342.04 -> 308.10 us; the grid's M = 2048, N = 4096, K = 14336 0.962;
// M = 768, N = 10240, K = 16384 1.019); 14 held-out moved shapes 0.919-1.013,
// geomean 0.980.
inline constexpr int64_t kHopperSlowDramTwoWavePairsMinK = 12288;
// 3. 128 x 128 tiles split over K: the unsplit swap program (kHopperUnsplitSwapMaxK,
// sm90_choice.cpp unsplit_swap) up to this K, where the H200 keeps the split (there
// at K = 8192: M = 512, N = 2048 18.24 / 19.80 us, M = 2048, N = 512 17.94 / 19.05).
// H100 SXM (the twenty-seventh session after version 73,
// docs/results/h100-2026-12-06-unsplit-swap/): the 52 shapes it moves (38 one-wave
// plans and 4 second regions at K = 7168 / 8192, and the 10 that
// kHopperUnsplitSwapWeightRowsMinRatio moves at K <= 6144), scripts/plan-ab against
// version 78's plan, two runs of each of two builds that plan them alike: geomean
// 0.930 / 0.931, 0.875-1.005 / 0.880-1.003, 45 / 43 faster by more than 2% and none
// slower (M = 208, N = 4096, K = 7168 19.86 -> 17.48 us; M = 2048, N = 512, K = 8192
// 21.65 -> 19.31; M = 8192, N = 512, K = 8192, its second region, 69.87 -> 63.86;
// M = 576, N = 1536, K = 8192 1.003). On 114 SMs of the same board (--sms 114), the
// 35 shapes it moves there: 0.940 (0.898-0.999), none slower by more than 2%. Not
// beyond: from K = 12288 the unsplit tiles read 1.018-1.297 of the split plan's time
// at five shapes (docs/results/h100-2026-12-06-serving-v77/).
inline constexpr int64_t kHopperSlowDramUnsplitSwapMaxK = 8192;
// 4. Two waves of 128 x 128 tiles over the whole problem, single CTAs or pairs sharing
// the token tile (not the weight pairs of 1 and 2, which go first), from this K on:
// one wave of 256 x 128 tiles, single CTAs (sm90_choice.cpp slow_dram_256_row_tiles).
// Per SM the same outputs from 384 operand rows per K block instead of 512. H100 SXM
// (the twenty-eighth session after version 73, docs/results/h100-2026-12-06-256-row-tiles-slow-dram/),
// the program forced against the plan, two passes, medians of per-pass ratios: single
// CTAs at K = 6144 / 7168 / 8192 0.928-0.986 over 19 shapes (M = 448, N = 8192,
// K = 8192 58.20 -> 54.43 us; M = 1792, N = 2048, K = 6144 0.928); token-tile pairs
// at K = 8192..18944 0.921-1.012 over 15 (M = 1024, N = 4096, K = 18944 129.34 ->
// 119.09). Not below this K (K = 2048..4096: 0.981-1.024 over 12), nor in place of
// the weight pairs (M = 448, N = 8192, K = 12288..18944 0.987-1.026). The rule against
// version 79's plan (scripts/plan-ab, two runs), all 122 shapes it moves over two
// sessions: 72 whole problems, 58 at 0.967 (0.914-1.017, none slower by more than 2%)
// and 14 at 0.963 (0.896-1.026; the 1.026 read 0.982 in five more runs); 50 second
// regions, 40 at 0.997 (0.947-1.044; its six above 1.02 read 0.961-1.007 in three more
// runs) and 10 at 0.996 (0.976-1.007).
inline constexpr int64_t kHopperSlowDram256RowTilesMinK = 6144;
// 5. The same in place of two waves of single 128 x 112 CTAs over the whole problem
// (where neither pairing fits two waves: 7 x 35 / 7 x 37 / 5 x 46 tiles), from this K
// on, where the 256 x 128 tiles leave the busiest SM at most this percentage of the
// K-block work (one 256 x 128 tile holds 8/7 of two 128 x 112 ones), and not where K is
// a multiple of kHopperSlowDram256RowTilesOver112KeepK. H100 SXM (the thirty-ninth
// session after version 73, docs/results/h100-2026-12-07-v82/), scripts/plan-ab of
// version 81 against the rule without that exception, three runs, 20 shapes: 17 at
// 0.911 of version 81's time (0.816-1.002), 0.924 over cuBLASLt fast in each process
// (0.866-1.003), none slower by more than 2% in either (M = 896, N = 4096, K = 18944
// 141.75 -> 116.25 us). At K = 16384 the 128 x 112 CTAs run 13-15% under their own
// K-linear trend (M = 896, N = 3840: 86.05 / 97.64 / 98.69 / 136.16 us at K = 12288 /
// 14336 / 16384 / 18944; the 256 x 128 tiles and cuBLASLt stay on theirs), and the
// 256-row wave read 1.041-1.062 raw, 1.057-1.101 over cuBLASLt, on all three shapes
// there: version 81's plan stays. Only K = 16384 of the multiples was measured; a
// forced scan over K = 12288..20480 by 1024 (the forty-second session,
// docs/results/h100-2026-12-07-suite-87cd49e/) found the 128 x 112 CTAs' fast point
// at 16384 alone (6.24 ns per K against 7.08-7.63 at the nine other K), so the
// exception covers no other K there. Below
// K = 12288 the 256-row wave lost in the session before
// (docs/results/h100-2026-12-07-256-row-one-wave/).
inline constexpr int64_t kHopperSlowDram256RowTilesOver112MinK = 12288;
inline constexpr int64_t kHopperSlowDram256RowTilesOver112MaxWorkPercent = 115;
inline constexpr int64_t kHopperSlowDram256RowTilesOver112KeepK = 16384;
// 6. Three or more waves of 128 x 112 tiles in pairs sharing the token tile over the
// whole problem, from this K on: 128 x 160 pairs (fp8_hopper_128x160) where they take
// fewer waves and leave the busiest SM at most this percentage of the K-block work
// (sm90_choice.cpp slow_dram_wide_tiles): seven waves of 784 columns per SM against
// five of 800, fourteen against ten (102%). Each pair then reads 128 + 320 operand rows
// per K block for 128 x 320 outputs. H100 SXM (the thirty-ninth session after version
// 73, docs/results/h100-2026-12-07-v83/), scripts/plan-ab of version 82 against the
// rule at 110%, three runs, 36 shapes: the 20 it moves at 105% (M = 896..2560,
// N = 5120..28672, K = 12288..18944) 0.915 of version 82's time (0.902-0.928), 0.942
// over cuBLASLt fast in each process (0.897-0.993), all faster (M = 896, N = 14336,
// K = 18944 457.82 -> 412.81 us). Not four waves against three (107%): at K = 18944
// 0.934-0.961, but at K = 16384 three of four shapes 1.034-1.045 (1.041-1.053 over
// cuBLASLt) and M = 2048, N = 3584 1.013-1.014 at K = 12288 / 14336.
inline constexpr int64_t kHopperSlowDramWideTilesMinK = 12288;
inline constexpr int64_t kHopperSlowDramWideTilesMaxWorkPercent = 105;

// Hopper 256-row tiles, on every board: in place of two regions whose head is the
// 192 x 128 program on kHopper256RowTilesHeadWaves waves: 256 x 128 tiles
// (fp8_hopper_256x128, two consumer warpgroups of two 64-row passes) over the whole
// problem, single CTAs, where they take at most kHopper256RowTilesMaxWaves waves, on
// more than kHopperFewSms SMs. The program forced against the plan on H100 SXMs (the
// twenty-first session after version 73, docs/results/h100-2026-12-05-split-rul-u8/, two
// runs each, the quotient of the two cake / cuBLASLt fast ratios): M = 1024, N = 8192,
// K = 4096 0.899, K = 8192 0.908-0.937 (there the plan read 0.996-1.055 of the unfused
// path, the tiles 0.948-0.950); M = 2048, N = 4096, K = 4096 0.955-0.963, K = 8192
// 0.989, K = 14336 0.979-0.981 (a head in pairs, kHopperSlowDramTwoWavePairsMinK). Not
// where the head takes four waves (M = 2048, N = 8192 and M = 4096, N = 4096:
// 0.981-1.010), nor in place of one region of 192 x 128 pairs on four waves
// (1.015-1.029) or at M = 8192 (1.021-1.153). Only where the tiles leave the busiest SM
// no more K-block work than the two regions together: side by side with the plan before
// the rule over the 75 shapes it moved without that condition (H100 SXM, the
// twenty-fourth session after version 73, docs/results/h100-2026-12-06-256-row-tiles/,
// scripts/plan-ab, one run), the 58 it keeps 0.883-1.036, geomean 0.960; the 17 it
// leaves, whose rest is split over clusters (M = 768, N = 10240; M = 3072, N = 2560;
// M = 6144, N = 1280) or of swap 64 x 128 tiles (M = 1280, N = 5120), geomean 1.007, up
// to 1.101. On the H200 (the same session, forced, two rounds) 0.948-0.995 of the plan's
// time at six shapes (M = 2048, N = K = 4096 0.948-0.950). Version 78 takes it to every
// board: on an H200 (the twenty-sixth session, docs/results/h200-2026-12-06-v78/,
// scripts/plan-ab, two runs) the 58 moved shapes read 0.975 of the plan before
// (0.924-1.016, 34 faster and none slower by more than 2%; M = 8192, N = 1024, K = 2048
// 0.924, M = 1280, N = 6144, K = 18944 1.016).
inline constexpr int64_t kHopper256RowTilesHeadWaves = 2;
inline constexpr int64_t kHopper256RowTilesMaxWaves = 2;

// Hopper split-K: a problem with few tiles splits K over clusters of 8, 4 or 2
// CTAs (at most the program's limit: 8 for the 64 x 64 and 64 x 16 swap
// programs, 4 for the 128 x 64 and 64 x 128 ones, 2 for the others), the largest
// whose clusters (one per tile) are all resident at once and that leaves every
// CTA at least one 128-deep K block. With more tiles than that,
// for M <= kHopperSwapMaxM (decode), resident clusters of 2 walk the tiles when
// that leaves the busiest SM fewer K blocks (two and a half more per tile counted
// for the hand-over of the partial sums on more than kHopperFewSms SMs, one on
// fewer: kHopperDecodeSplitHandoverHalfBlocks).
// Decode on the swap programs' whole 64-row tiles chooses its one round of
// split-K (or none) by estimated time instead (narrow tiles keep the largest):
// each 128-deep K block of a tile takes the longer of what memory needs for the
// weight rows of every CTA streaming at once (kHopperDecodeMemoryBytesPerNs) and
// what one SM needs for its own (kHopperDecodeSmBlockNs per 64 weight rows up to
// 32 tokens, growing to kHopperDecodeSmBlockNsWide at 64, whose bytes it reads
// from L2 too); a split adds kHopperSplitHandoverNsPerToken per token row for the
// hand-over. Fitted on the H200 (2026-11-30, r = 128, us, unsplit / split 2, two
// runs each): N = 4096 (64 tiles), K = 4096: M = 1 7.06 / 7.14, M = 16 7.38 / 7.58,
// M = 32 7.59 / 7.91, M = 64 8.17 / 8.44; K = 8192: M = 1 11.41 / 11.51, M = 64
// 13.04 / 12.74; K = 14336: M = 32 18.25 / 18.30, M = 64 19.98 / 19.14;
// N = 2048 (32 tiles), K = 4096: M = 1 6.77 / 5.32, M = 64 7.94 / 6.59. So 64 SMs
// unsplit already stream N = 4096 at the memory's rate; at 64 tokens an SM alone
// is slower (tokens from L2), and the split pays from K = 8192 on.
inline constexpr int64_t kHopperDecodeMemoryBytesPerNs = 4000;
inline constexpr int64_t kHopperDecodeSmBlockNs = 117;
inline constexpr int64_t kHopperDecodeSmBlockNsWide = 146;
inline constexpr int64_t kHopperSplitHandoverNsPerToken = 11;
// Few SMs (an SM limit set by cake::set_num_sms, or a smaller device): on at most
// this many each SM has more weights to stream than the 64-row swap programs let
// it pull (about 44 GB/s per SM on the H200, so below about 82 SMs they leave the
// memory idle), and the plan weighs tiles by what one SM can pull
// (kHopperDecodeSplitHandoverHalfBlocks, kHopperSwapWideWeightTiles*). What bounds
// an SM is the cost of each stage, not the ring's depth: a K block takes at least
// 125-150 ns (1..64 tokens) on 40 as on 64 weight rows, and rings of 8 stages in
// place of 13-22 slowed 40-row tiles by 0-6% (H200, one wave on 66 CTAs,
// docs/results/h200-2026-12-04-decode-rate/). Those figures predate version 75, whose
// 64-row swap programs take two K blocks per stage (config.h kStageBlocks: 40-row tiles
// 124.5 -> 97.5 ns per K block); this threshold and the decode model above were not
// measured again since.
inline constexpr int kHopperFewSms = 80;

// What the hand-over of a split tile's partial sums costs the decode plans
// (choose_split's rounds of clusters of 2 and busiest_sm_rows_streamed, both for
// M <= kHopperSwapMaxM), counted as this many half K blocks of the tile: 2.5 K
// blocks. It was 1 until the H200 measurements of 2026-12-04 (r = 128, 132 SMs,
// docs/results/h200-2026-12-04-decode-split/): at 16..64 tokens on N = 10240 ..
// 37888, K = 2048..6144 (125 shapes, the plan against its program forced unsplit and
// split in two, two runs each), every plan that split K in rounds was slower than
// unsplit (0.90-0.999 of its time unsplit) and every unsplit one faster than split
// (split 1.04-1.26); counting 2.5 blocks picks the faster of the two at all 125
// shapes but one (M = 64, N = 12288, K = 6144: 1.045), 1 block missed 74, 2 blocks 11
// and 3 none, but 3 also moves M = 64, N = 10240 and 18432 at K = 8192, where
// unsplit measured 1.03-1.05 of split. Then against the plan before it (builds
// alternated, three runs, medians, 36 of the 274 moved plans of M = 1..64, N =
// 1024..57344, K = 1024..28672 sampled, 32 of them off the fitted shapes): geomean
// 0.963, 0.850-1.030; one-round splits of 1024-deep K on 128 CTAs that now run
// unsplit on 48-56 SMs 0.850-0.915 (M = 32, N = 3584, K = 1024: 4.26 -> 3.62 us),
// N = 28672 at K = 8192..16384 0.959-0.985, long-K decode 0.98-1.01, and slower
// N = 10240 at K >= 8192 on 40-row tiles (M = 33, K = 10240 1.030; M = 40,
// K = 8192 1.027). On 114 SMs (an SM limit; 8 moved plans sampled, the same way,
// two runs): 0.837-1.010. On 78 SMs it lost where it took narrower tiles at K >=
// 5120 (M = 40, N = 6144 / 7168, K = 7168 1.12-1.14; M = 16, N = 10240, K = 12288
// 1.11) and gained elsewhere (0.84-0.87): with few SMs each SM's rate, which fewer
// rows per stage lower, limits the stream (kHopperFewSms), and the rows streamed
// do not say that. So on kHopperFewSms SMs or fewer, and past decode, one block,
// as before. On 96 SMs (20 of its 225 moved plans, sampled the same way, two runs,
// docs/results/h200-2026-12-04-decode-rate/): geomean 0.988, 0.885-1.121, slower
// where 24..40 tokens take 40 / 48-row tiles unsplit at K >= 6144 (M = 32, N = 7168,
// K = 12288 1.121): the same per-SM limit, which a model of it did not pick better.
inline constexpr int64_t kHopperDecodeSplitHandoverHalfBlocks = 5;

// The swap programs on 64 weight rows may take tiles of these fewer weight rows,
// widest first, when that leaves the busiest SM fewer rows to stream
// (sm90_program.cpp hopper()).
inline constexpr int kHopperNarrowRows[] = {56, 48, 40};

// On few SMs (at most kHopperFewSms), 33..64 tokens: the 128-row swap program
// unsplit (fp8_hopper_swap_128x64) in place of the 64-row one, unpaired, where its
// tiles fill more than half the SMs and its busiest SM streams at most
// kHopperSwapWideWeightTilesMaxRowsPercent of the rows (busiest_sm_rows_streamed,
// sm90_program.cpp): its stages hold twice the weight rows per token row, so each SM pulls
// more. H200, 2026-12-04, r = 128, in docs/results/h200-2026-12-04-plan-kinds/:
//  - forced unsplit against the plan, best of two runs each (08-*): 66 SMs 0.80-0.90
//    of the plan's time at M = 33 / 64 on N = 14336 / 28672 / 37888; 78 SMs
//    0.86-0.93, but 1.042 at N = 14336 (111% of the rows: not taken); 96 and 132
//    SMs 1.03-1.06 where the plan runs unsplit (not taken: above the limit);
//  - on half the SMs or fewer it lost (not taken): M = 64, N = 4096 on 66 SMs, 32
//    tiles of 128 rows against 64 of 64, 9.04 against 7.49 us at K = 4096 (10-*)
//    and 23.90 against 19.52 at K = 14336 (07-*);
//  - against the plan without it, 24 of the 378 moved plans (M = 33..64, N = 1024
//    .. 37888, K = 1024 .. 18944) sampled, builds alternated, two runs each (09-*):
//    0.783-0.936 of its times, geomean 0.885 on 78 SMs and 0.841 on 66, none
//    slower. No plan moves on 96 SMs or more.
inline constexpr int64_t kHopperSwapWideWeightTilesMaxRowsPercent = 105;

// The compute-bound Hopper programs (tiles of at least 128 x 112) run in CTA pairs
// that share their P tile by TMA multicast when they have at least this many waves
// of tiles (sm90_program.cpp hopper_multicast). H200, 2026-11-30, r = 128, K = 4096 unless
// stated, us without / with, best of two runs each: M = 8192, N = K = 8192
// 955.6 / 926.3; N = 28672 1748.9 / 1679.1; N = 6144 365.0 / 351.0; N = 4096,
// K = 14336 807.6 / 790.1; M = 2048, N = K = 8192 255.0 / 247.7. On one wave it
// cost 2-3% (a forced run: M = 512, N = 4096 18.0 / 18.5, N = 6144 24.0 / 24.6).
// From two waves on, side by side (interleaved benchmark, two runs each, best per
// shape): M = 2048, N = 4096, K = 4096 62.96 / 63.55; K = 14336 192.5 / 193.1;
// M = 512, N = K = 8192 60.24 / 60.37; M = 128, N = 28672 39.00 / 39.62.
// The 128 x 112 program too (2026-12-01, forced, three alternated runs each,
// medians, single / pairs: M = 2048, N = 3584, K = 18944 228.6 / 218.1 on four
// waves; M = 1024, N = 7168, K = 8192 98.3 / 95.2; M = 512, N = 14336, K = 8192
// 102.2 / 100.7; M = 2048, N = 3584, K = 3584 45.1 / 44.3; at K = 2560 it lost
// 2%, M = 896, N = 10240 46.6 / 47.7).
inline constexpr int64_t kHopperMulticastMinWaves = 3;
// And, for the programs with two partial-sum sets (128 x 112, 128 x 128), on two
// waves at long K over many token tiles where the pairs take two waves too (H200,
// 2026-12-02, version 58, single / pairs, us; forced, four alternated passes,
// medians: M = 3072, N = 1280, K = 8192 53.12 / 50.32; M = 1536, N = 2560,
// K = 8192 54.20 / 52.20; M = 1024, N = 3584, K = 18944 118.48 / 114.95; then the
// rule against version 58 over 24 moved shapes, three alternated runs, medians:
// 128 x 112 0.932-0.990 (M = 1024, N = 3584, K = 8192 49.78 / 46.39), 128 x 128
// 0.956-1.050 (M = 2560, N = 1536, K = 12288 73.58 / 77.15, 0.998 in the next
// call); then 13 other shapes it moves, four runs: 0.960-1.004, geomean 0.992.
// The one-set programs measured within the spread there (192 x 128 0.976-1.013),
// and at fewer token tiles or shorter K the pairs lost up to 5%: M = 512,
// N = 8192, K = 1024 12.83 / 13.48, K = 2048 17.23 / 17.80; M = 256, N = 14336,
// K = 8192 55.75 / 56.07.
inline constexpr int64_t kHopperMulticastTwoWavesMinK = 8192;
inline constexpr int64_t kHopperMulticastTwoWavesMinTokenTiles = 8;

// Hopper's FP8 tensor-core accumulation keeps fewer bits than fp32, so the
// programs add its partial sums into an fp32 accumulator every 64 elements of K,
// or every 128 from this K on: half the additions (H200, r = 128: 8192^3 1023 ->
// 922 us, M = 2048, N = 6144, K = 4096 88.2 -> 81.0, M = 512, N = 4096 18.0 ->
// 17.1). Every 128 K is also what cuBLASLt does without fast accumulation, and
// gives the same outputs. Its error per element against the accuracy bar (one bf16
// ulp + 1e-3 of the output's rms), worst over 6 x 16M outputs of the GPU tests'
// inputs: K = 1024 1.171 (fails, as cuBLASLt does; every 64 K: 0.560), 2048 0.880,
// 3072 0.764, 4096 0.792, 8192 0.604, 16400 0.616, 65536 0.506
// (bench/accuracy_torch.py). From 3072 on since version 36 (4096 before), with
// the margin K = 4096 had: serving shapes at K = 3584 (Qwen2.5-7B's hidden size,
// Llama-3-70B's down projection over 8 GPUs) were 1.29-1.42x cuBLASLt. From 2048
// since version 56, where cuBLASLt's accurate mode, whose outputs this depth gives
// bit for bit wherever compared (K = 1024, K >= 3072), measures 0.880 of the bar
// (docs/results/h200-2026-12-01-v36/experiments/05-*): the serving shapes at K = 2048 (the hidden
// size of 1B-class models) were 1.27-1.35x cuBLASLt; against version 55, two
// alternated runs per shape (docs/results/h200-2026-12-01-v55/), all 13 serving
// shapes it changes and 13 of the dense sweep's 884 moved plans (52 of the 884 also
// change program or regions, kHopperWideTileMaxWorkPercentLongPromotion going with
// the depth; 10 of the 13 measured do) ran
// 0.795-0.978 of the time, geomean 0.905 (M = 2048, N = 8192 75.24 -> 62.67 us;
// M = 2560, N = 2560 33.78 -> 26.84); the GPU suite's two shapes at K = 2064 hold
// the full bar at this depth.
inline constexpr int64_t kHopperLongPromotionMinK = 2048;

// Two regions: where a three-consumer program leaves its last wave partly idle,
// the first rows (fp8_hopper_192x128) or columns (fp8_hopper_swap_192x128, whose
// P tiles run along N) of out as whole waves of it and the rest as a second
// launch, when that leaves the busiest SMs of the two launches together at least
// this percentage less work (output elements, 128 x 128 ones counted
// kHopperRegionSquareCostPercent of 192 x 128 ones: their program is slower per
// element). Rows, e.g. M = 2048, N = 4096 (352 tiles, 2.67 waves of 132 SMs): rows
// 0-1535 as 256 tiles of 192 x 128, two waves, and rows 1536-2047 as 128 tiles of
// 128 x 128, one. H200, r = 128, against one launch, best of two runs each:
// M = 2048, N = 4096, K = 14336 219.4 -> 207.5 us; N = K = 8192 244.9 -> 224.1; but
// N = K = 4096 61.9 -> 62.7 (no gain: the second launch's fill and drain, a fixed
// cost this work-only rule does not weigh yet). Columns, e.g. M = 512, N = 28672
// (600 turned tiles, 4.55 waves): columns 0-25343 as 528 of them, four waves, and
// columns 25344-28671 as 104 tiles of 128 x 128, one.
inline constexpr int64_t kHopperRegionMinGainPercent = 5;
// ... and, where no fitted weight tile takes the plan (kHopperFittedWeightTiles*),
// from this K on also cut along Q: whole Q blocks of the clusters, columns of out
// for fp8_hopper_192x128 and rows (tokens) for the turned program, where whole P
// tiles leave no whole wave: M = 2048, N = 2560 is 11 x 20 tiles of 192 x 128
// (1.67 waves of 132 SMs), columns 0-1535 are one wave of them and columns
// 1536-2559 one of 128 x 128. A second region split over s CTAs (split-K) weighs
// (s + 1) / 2s of its tiles. H200, r = 128, against the cut along P alone, best of
// two alternated runs each: at K >= 4096 0.896-0.986 on 14 shapes (M = 3072,
// N = 2560, K = 14336 199.9 -> 179.1 us; M = 768, N = 14336, K = 18944 369.1 ->
// 332.4; M = 2048, N = 2560, K = 4096 38.9 -> 36.7), below it 1.02-1.18 (M = 2048,
// N = 2560, K = 1024 16.2 -> 19.1: the second launch's fixed cost).
inline constexpr int64_t kHopperRegionAcrossMinK = 4096;
inline constexpr int64_t kHopperRegionSquareCostPercent = 110;
// ... and 128 x 64 tiles of the swap programs (a second region of few tiles at
// short K, kHopperUnsplitSwapMaxK) this percentage, as are the 64 x 96 ones (a
// second region of 65..128 rows in weight-tile pairs). Per element they measured
// 145-152% (H200, 2026-12-01, r = 128, K = 4096, one wave each: 128 tiles of
// 192 x 128 (M = 3072, N = 1024) 21.11 us, of 128 x 64 (M = 1024, N = 1024,
// fp8_hopper_swap_128x64) 10.23, (M = 256, N = 4096, fp8_hopper_swap_64x128)
// 10.74), but the region boundaries that 150 newly took measured no gain (the
// second launch's fixed cost): M = 8192, N = 2048, K = 4096 118.7 -> 120.8 us,
// M = 256, N = 28672, K = 6144 86.3 -> 87.0, M = 193, K = 4096 55.9 -> 56.1. At 200
// the boundaries stay where the other programs put them and only the second
// region's program changes: M = 4096, N = 1024, K = 4096 34.3 -> 31.8 us; M = 8192,
// N = 512 37.8 -> 34.4.
inline constexpr int64_t kHopperRegionSwapCostPercent = 200;
// ... considered inside the plan up to this many waves of the one program, where
// its other rules may still take the plan from a cut ...
inline constexpr int64_t kHopperRegionMaxWaves = 8;
// Past them, up to kHopperRegionManyWavesMaxWaves, the same cuts as a last step
// (plan_sm90), where no other rule has taken the plan from the 192-row program and
// from K = kHopperRegionManyWavesMinK: a last wave of few tiles weighs a tenth of
// ten. Version 69; H200, 2026-12-02, r = 128, against version 68 (plan-ab, three
// alternated runs, docs/results/h200-2026-12-02-v66b/experiments/06-*): M = 1024,
// N = 28672, K = 2048 / 4096 / 8192 / 18944 0.972 / 0.940 / 0.935 / 0.927 (1200
// turned tiles on ten waves, the last of 12 tiles; cut: columns 0-25343 eight waves,
// 25344-28671 two waves of 128 x 112; 213.9 -> 201.1 us at K = 4096); M = 2048,
// N = 14336, K = 4096 / 8192 / 18944 0.963 / 0.947 / 0.940 (columns 0-12287 eight waves of 192 x 128,
// the rest 128 x 128); M = 4096, N = 6400 and M = 8192, N = 3584 (rows), K = 4096 /
// 8192 / 18944 0.941-0.958. At K = 1024 the cuts lost (1.019 / 1.025 at M = 4096,
// N = 6400 and M = 8192, N = 3584), as they do below kHopperRegionAcrossMinK on few
// waves. Considered inside plan_sm90_tiles (16 waves in place of 8) they also took
// plans from other rules and lost there: M = 640, N = 37888 from the 160-token
// tiles 1.034-1.055, M = 896, N = 28672, K = 1024 1.062.
inline constexpr int64_t kHopperRegionManyWavesMaxWaves = 16;
inline constexpr int64_t kHopperRegionManyWavesMinK = 2048;

// Raster block of the Blackwell L2-point program, in pair tiles.
inline constexpr int kBlackwellRasterBlockM = 4;
inline constexpr int kBlackwellRasterBlockN = 4;

}  // namespace cake
