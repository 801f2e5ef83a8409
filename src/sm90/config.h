// Compile-time shape of each Hopper program: shared by the plan (host, pure C++)
// and the kernels, so that what plan() reports is what the kernel is built with.
#pragma once

namespace cake::sm90 {

// Shared-memory budget of one CTA on SM90 (227 KiB) and what the kernel keeps
// outside the ring: barriers and 1 KiB of alignment slack.
inline constexpr int kSmemBytes = 232448;
inline constexpr int kSmemReserved = 2048;

// One pipeline stage holds a 128-byte-wide K slice of both operands: 128 FP8
// elements of a/b, or 64 BF16 elements of d/lora_b (the same bytes per row).
inline constexpr int kStageK = 128;      // FP8 elements per stage
inline constexpr int kLoraChunk = 64;    // BF16 elements per stage
inline constexpr int kRowBytes = 128;
// The contract's largest LoRA rank (r in {32, 64, 128}) in 64-wide BF16 slices.
inline constexpr int kMaxLoraChunks = 128 / kLoraChunk;

// Hopper's FP8 tensor-core accumulation keeps fewer bits than fp32: its partial
// sums are added into an fp32 accumulator every 64 or 128 elements of K (two or
// four 32-deep FP8 wgmma; the plan's promotion_k, cake/plan.h).
inline constexpr int kPromotionShortK = 64;
inline constexpr int kPromotionLongK = 128;

template <int kBlockP_, int kBlockQ_, bool kSwapAB_, int kQWarpgroups_ = 1, int kPasses_ = 1>
struct ProgramShape {
  // P: the operand on wgmma's M side (64 rows per consumer warpgroup);
  // Q: the operand on wgmma's N side. Without swap P = a (rows of out), Q = b;
  // with swap P = b (columns of out), Q = a.
  static constexpr int kBlockP = kBlockP_;
  static constexpr int kBlockQ = kBlockQ_;
  static constexpr bool kSwapAB = kSwapAB_;
  // Consumer warpgroups per 64 rows of P, each on its own kWarpgroupQ rows of Q:
  // the same stage feeds them, and each one's chain of wgmma and promotions per
  // stage is that much shorter.
  static constexpr int kQWarpgroups = kQWarpgroups_;
  static constexpr int kWarpgroupQ = kBlockQ / kQWarpgroups;
  // Not turned, a Q block that is not whole 64-column boxes of out is staged and
  // stored as plain (unswizzled) rows, one box of kWarpgroupQ columns per
  // consumer warpgroup.
  static constexpr bool kPlainOut = !kSwapAB && kBlockQ % 64 != 0;
  static_assert(kQWarpgroups == 1 || ((kSwapAB || kPlainOut) && kWarpgroupQ % 16 == 0),
                "Q is split over warpgroups only where each one's epilogue stores a box of its own");
  // CTA pairs (TMA multicast) share one operand tile, each CTA loading half of it
  // into both: the P tile, pairs lying along Q; in the 64 x 96 and 128 x 80
  // programs (tokens of P by weight rows of Q), the weight tile, pairs lying along
  // P, as cuBLASLt's 96 x 64 and 80 x 128 tiles in clusters of two do:
  // the token tile, which many CTAs read at once there, is left to the L2's
  // merging of their requests (version 63, M = 512, N = 2560, K = 8192: 3.45 M
  // sectors read from L2 against 3.97 M for single CTAs, both along Q).
  static constexpr bool kPairsShareQ = !kSwapAB && (kBlockP == 64 || kBlockQ == 80);
  // Programs whose pairs may lie either way. Their kernel is built both ways. 128 x
  // 112: the plan shares the weight tile (along P) on two token tiles at long K and
  // the token tile (along Q) on many waves (rules.h kHopperWeight112Pairs*,
  // kHopperMulticastMinWaves). 128 x 128: the plan pairs it along Q, and along P too
  // on boards of slower DRAM (rules.h kHopperSlowDram*, sm90_choice.cpp plan_sm90_board),
  // where one or two waves of single CTAs are paced by what L2 delivers to the SMs
  // (H100, M = 512, N = 4096, K = 14336: 456 MB pulled through L2 against cuBLASLt's 247).
  static constexpr bool kPairsBothWays = !kSwapAB && kBlockP == 128 && (kBlockQ == 112 || kBlockQ == 128);
  // 64-row passes per consumer warpgroup: each warpgroup owns 64 * kPasses rows of
  // P, issued as kPasses wgmma passes per K block into one partial-sum set, each
  // waited for and promoted into its own part of the accumulator (256 x 128: two
  // warpgroups of 128 rows, as DeepGEMM's SM90 tiles of 256 rows).
  static constexpr int kPasses = kPasses_;
  static_assert(kPasses == 1 || (!kSwapAB && kQWarpgroups == 1 && !kPlainOut),
                "passes: unturned, one warpgroup per P slab, whole 64-column boxes of out");
  static constexpr int kConsumerWarpgroups = kBlockP / (64 * kPasses) * kQWarpgroups;
  static constexpr int kThreads = 128 * (kConsumerWarpgroups + 1);
  // K blocks per ring stage. A stage costs an SM about 125 ns whatever its bytes
  // (its barriers' round trips and its TMA boxes), which bounds what one SM streams:
  // on 66 CTAs, 40-row weight tiles 41 GB/s. The weight-streaming 64-row swap
  // programs on up to 64 tokens therefore take two K blocks per stage (one wait and
  // one release per 256 K; H200, one wave of 40-row tiles on 66 CTAs, one token, in
  // the probe of this layout: 124.5 -> 97.5 ns per K block), the others one.
  static constexpr int kStageBlocks = kSwapAB && kBlockP == 64 && kQWarpgroups == 1 && kBlockQ <= 64 ? 2 : 1;
  static constexpr int kBlockBytes = (kBlockP + kBlockQ) * kRowBytes;  // one K block of both operands
  static constexpr int kStageBytes = kStageBlocks * kBlockBytes;
  static constexpr int kEpilogueBytes = kBlockP * kBlockQ * 2;  // bf16 output tile
  // Split-K: the fp32 partial sums of a tile from one CTA of a cluster land in this
  // many stages of the leader's ring, or, where they are smaller than a stage,
  // kPartialsPerStage CTAs' sums share one.
  static constexpr int kPartialBytes = kBlockP * kBlockQ * 4;
  static constexpr int kPartialStages = (kPartialBytes + kStageBytes - 1) / kStageBytes;
  static constexpr int kPartialsPerStage = kPartialBytes <= kStageBytes ? kStageBytes / kPartialBytes : 1;
  static constexpr int kStagesFit = (kSmemBytes - kSmemReserved - kEpilogueBytes) / kStageBytes;
  // Deep rings matter for the weight-streaming swap programs (bytes in flight per
  // SM): 64 x 64 keeps 6 stages of two K blocks (96 KiB of weights), 64 x 32 9
  // (144 KiB), 64 x 16 11 (176 KiB).
  static constexpr int kStages = kStagesFit > 24 ? 24 : kStagesFit;
  static constexpr int kSmemUse = kStages * kStageBytes + kEpilogueBytes + kSmemReserved;
  // Narrow tiles: a swap program on 64 weight rows may take tiles of fewer weight
  // rows than the 64 that wgmma computes (the plan's choice). Not on 128 tokens in
  // one warpgroup (at 232 registers its narrow epilogue spilled; H200: 25% slower at
  // M = 128).
  static constexpr bool kNarrowTiles = kSwapAB && kBlockP == 64 && kWarpgroupQ <= 64;
  // Output tile in out's own coordinates.
  static constexpr int kTileM = kSwapAB ? kBlockQ : kBlockP;
  static constexpr int kTileN = kSwapAB ? kBlockP : kBlockQ;
  static_assert(kStages >= 3, "ring too shallow");
  static_assert(kSmemUse <= kSmemBytes, "shared memory over budget");
  // The leader's ring holds the landing stages of all other CTAs of its cluster at
  // once, with one stage to spare: the largest split (a power of 2, at most 8).
  // Programs of several passes have no split-K hand-over (program.cuh): 1.
  static constexpr int kMaxSplitFit = 1 + (kStages - 1) / kPartialStages * kPartialsPerStage;
  static constexpr int kMaxSplit =
      kPasses > 1 ? 1 : kMaxSplitFit >= 8 ? 8 : kMaxSplitFit >= 4 ? 4 : kMaxSplitFit >= 2 ? 2 : 1;
  static_assert(kMaxSplit >= 2 || kPasses > 1, "every program of one pass can split K over a cluster of 2");
  static_assert(kStageBytes % 2048 == 0 && kPartialBytes % 2048 == 0,
                "partials land in 2048-byte blocks (four registers of a warpgroup) that never straddle "
                "the end of the ring");
};

using Shape128x128 = ProgramShape<128, 128, false>;
// Three consumer warpgroups: while two promote, the third's instructions keep
// the tensor cores busy.
using Shape192x128 = ProgramShape<192, 128, false>;
using ShapeSwap128x64 = ProgramShape<128, 64, true>;
// One consumer warpgroup on 64 weight rows: twice the CTAs of the 128-row swap
// program, so that small-N decode streams its weights from (nearly) every SM.
using ShapeSwap64x64 = ProgramShape<64, 64, true>;
// The same on up to 16 tokens: a stage is 8 KiB of weights and 2 KiB of tokens, so
// the ring keeps 176 KiB of weights in flight, and the tensor cores and the
// promotion work on 16 token columns instead of 64.
using ShapeSwap64x16 = ProgramShape<64, 16, true>;
// And on up to 32 tokens: stages of 8 + 4 KiB, 18 of them (144 KiB of weights).
using ShapeSwap64x32 = ProgramShape<64, 32, true>;
// The same on 128 tokens: each weight tile is read once for up to 128 tokens, by
// two consumer warpgroups on 64 tokens each (H200, M = 128, K = 4096: N = 4096
// 9.70 against 10.12 us with one warpgroup on all 128; N = 6144 11.53 against
// 12.18, with narrow tiles of 48 rows, which one warpgroup could not take).
using ShapeSwap64x128 = ProgramShape<64, 128, true, 2>;
// Three consumer warpgroups on 192 weight rows x 128 tokens: the 192 x 128 tile
// turned along N, for mid-size M where it fills one more wave of SMs than 128 x 128
// tiles do (M = 512, N = 6144: 128 tiles instead of 192 on 132 SMs).
using ShapeSwap192x128 = ProgramShape<192, 128, true>;
// 64 tokens x 96 weight rows, the tokens on wgmma's 64-row side and the weights on
// its N side: for 129..192 tokens, where it fills the SMs in one wave (M = 192,
// N = 4096: 129 tiles) and the 128-row swap program leaves a third of them idle
// (96 tiles), and in CTA pairs sharing the weight tile at 65..128 tokens. Two
// consumer warpgroups on 48 weight rows each, fed by the same stage, as in the
// swap 64 x 128 program: each one's chain of wgmma and promotions per stage is
// half as long.
using Shape64x96 = ProgramShape<64, 96, false, 2>;
// Token tiles fitted to the tokens: the swap programs on 80 or 96 tokens, on 128
// weight rows (two consumer warpgroups) or 64 (one). Past decode the tiles of a
// fixed width leave the last wave partly empty: M = 320, N = 4096 is 96 tiles of
// 128 x 128 on 132 SMs, and 128 of 128 weight rows x 80 tokens, one wave on
// nearly every SM with 5/8 of the work each; M = 160 and 192 on N = 4096 are 128
// tiles of 64 weight rows x 80 / 96 tokens.
using ShapeSwap128x80 = ProgramShape<128, 80, true>;
using ShapeSwap128x96 = ProgramShape<128, 96, true>;
using ShapeSwap64x80 = ProgramShape<64, 80, true>;
using ShapeSwap64x96 = ProgramShape<64, 96, true>;
// And 160 tokens on 128 weight rows (cuBLASLt's tile at M = 320 on N >= 7168): one
// partial-sum set (80 + 80 of the 232 registers); M = 320, N = 7168 is one wave of
// 112 tiles, where 80-token tiles take two waves of pairs for the same work per SM.
using ShapeSwap128x160 = ProgramShape<128, 160, true>;
// Weight tiles fitted to the weights: 128 tokens (two consumer warpgroups) by
// 112 or 144 weight rows on wgmma's N side, where 128-row weight tiles leave the
// last wave partly empty (M = 384, N = 4608: 126 tiles of 128 x 112 against 108
// of 128 x 128; M = 384, N = 6144: 129 of 128 x 144 against 96 of 192 x 128). At
// 144 columns a warpgroup's registers hold one partial-sum set (72 + 72), so that
// program carries the next tile's first K block through its epilogue as the
// 192 x 128 one does; at 112, two sets.
using Shape128x112 = ProgramShape<128, 112, false>;
using Shape128x144 = ProgramShape<128, 144, false>;
// And 80 weight rows, for few weights at long K: M = 1024, N = 1280, K = 8192 is
// 128 tiles of 128 x 80 in one wave, where 192 x 128 tiles need split-K in pairs
// on 120 SMs (cuBLASLt runs the same 80 x 128 tiles there).
using Shape128x80 = ProgramShape<128, 80, false>;
// And 192 tokens (three consumer warpgroups) by 112 weight rows: the fitted tiles of
// the 192 x 128 program, where its tiles leave SMs idle on one wave (M = 768,
// N = 3584: 128 tiles instead of 112; M = 2048, N = 1280: 132 instead of 110). One
// partial-sum set (56 + 56 of the 152 registers), so it carries the next tile's
// first K block through its epilogue as 192 x 128 does.
using Shape192x112 = ProgramShape<192, 112, false>;
// And 128 tokens by 160 weight rows: 5/6 of the work of 192 x 128 tiles where those
// leave SMs idle (M = 1024, N = 2560: 128 tiles instead of 120; 80 + 80 of the 232
// registers hold one partial-sum set, with the carry, as in 128 x 144).
using Shape128x160 = ProgramShape<128, 160, false>;
// 256 tokens by 128 weight rows on two consumer warpgroups of two 64-row passes each.
using Shape256x128 = ProgramShape<256, 128, false, 1, 2>;


// Every Hopper program: its enumerator in cake::Program (cake/plan.h) and its
// shape. The plan, the launcher, the instantiation declarations (run_program.h)
// and the benchmark's program list all expand this one table; programs/ holds one
// file per program that instantiates it (a missing one fails at link time).
#define CAKE_SM90_PROGRAMS(X)           \
  X(kHopper128x128, Shape128x128)       \
  X(kHopper192x128, Shape192x128)       \
  X(kHopperSwap128x64, ShapeSwap128x64) \
  X(kHopperSwap64x64, ShapeSwap64x64)   \
  X(kHopperSwap64x16, ShapeSwap64x16)   \
  X(kHopperSwap64x32, ShapeSwap64x32)   \
  X(kHopperSwap64x128, ShapeSwap64x128) \
  X(kHopperSwap192x128, ShapeSwap192x128) \
  X(kHopper64x96, Shape64x96)           \
  X(kHopperSwap128x80, ShapeSwap128x80) \
  X(kHopperSwap128x96, ShapeSwap128x96) \
  X(kHopperSwap64x80, ShapeSwap64x80)   \
  X(kHopperSwap64x96, ShapeSwap64x96)   \
  X(kHopper128x112, Shape128x112)       \
  X(kHopper128x144, Shape128x144)       \
  X(kHopper128x80, Shape128x80)         \
  X(kHopper192x112, Shape192x112)       \
  X(kHopper128x160, Shape128x160)       \
  X(kHopperSwap128x160, ShapeSwap128x160) \
  X(kHopper256x128, Shape256x128)

// Tiles walk this many tiles along M before moving along N (grouped raster):
// CTAs resident together share both operands in L2.
inline constexpr int kRasterGroup = 8;

}  // namespace cake::sm90
