// cake: program choice, a pure function of the problem and the device.
//
// plan() never touches a GPU: it maps (M, N, K, r, architecture, SM count, DRAM
// bandwidth) to the program that would run and its parameters. The launcher calls
// exactly this function, so what plan() returns is what runs. The thresholds of the
// choice, with the measurements behind them, are internal: src/plan/rules.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace cake {

enum class Arch { SM90, SM100, SM103 };

// "sm90", "sm100", "sm103".
const char* arch_name(Arch arch);
// Parses "sm90" / "sm_90" / "90" / "9.0" style names; nullopt when unknown.
std::optional<Arch> parse_arch(const std::string& name);
// The architecture of a compute capability, nullopt when cake has none for it.
std::optional<Arch> arch_from_compute_capability(int major, int minor);

enum class Program {
  // Hopper: warp-specialised persistent FP8 + LoRA program, 128 x 128 output tiles.
  kHopper128x128,
  // Hopper: the same program with three consumer warpgroups, 192 x 128 tiles.
  kHopper192x128,
  // Hopper, small M: A and B swapped so the weights sit on wgmma's 64-row side;
  // output tiles of 128 (N) x 64 (M).
  kHopperSwap128x64,
  // SM90, decode with few weight rows: the swap program on 64-row weight tiles.
  kHopperSwap64x64,
  // SM90, up to 16 tokens: the same on 64 weight rows x 16 tokens.
  kHopperSwap64x16,
  // SM90, 17 to 32 tokens: the same on 64 weight rows x 32 tokens.
  kHopperSwap64x32,
  // SM90, up to 128 tokens: the swap program on 64 weight rows x 128 tokens, two
  // consumer warpgroups of 64 tokens each.
  kHopperSwap64x128,
  // SM90, mid-size M: three consumer warpgroups on 192 weight rows x 128 tokens,
  // when that tiling leaves the busiest SM no more than 105% (115% where it
  // promotes every 128 K, kHopperLongPromotionMinK) of the work of 128 x 128
  // tiles (kHopperWideTileMaxWorkPercent, ...LongPromotion) and less than
  // 192 x 128.
  kHopperSwap192x128,
  // SM90, 129..192 tokens: 64 tokens x 96 weight rows (weights on wgmma's N
  // side), two consumer warpgroups of 48 weight rows each.
  kHopper64x96,
  // SM90, past decode: the swap program on token tiles of 80 or 96, on 128 weight
  // rows (two consumer warpgroups) or 64 (one), whose tiles fill one wave where the
  // fixed-width tiles leave it partly empty.
  kHopperSwap128x80,
  kHopperSwap128x96,
  kHopperSwap64x80,
  kHopperSwap64x96,
  // SM90, past decode: 128 tokens x 112 or 144 weight rows (the weights on
  // wgmma's N side), weight tiles fitted to the weights where 128-row ones leave
  // the last wave partly empty.
  kHopper128x112,
  kHopper128x144,
  // SM90, past decode: 128 tokens x 80 weight rows, the same for few weight rows at
  // long K (N = 1280 / 2560: one wave of whole tiles instead of split-K).
  kHopper128x80,
  // SM90, past decode: 192 tokens x 112 weight rows (three consumer warpgroups),
  // the fitted weight tiles of the 192 x 128 program: one wave where 192 x 128
  // tiles leave SMs idle (M = 768, N = 3584: 128 tiles instead of 112).
  kHopper192x112,
  // SM90, past decode: 128 tokens x 160 weight rows, the same (M = 1024, N = 2560:
  // one wave of 128 tiles instead of 120 of 192 x 128; at mid K also on many waves,
  // M = 896, N = 28672, K = 4096: ten waves of 1260 tiles in pairs instead of ten
  // of 1050 turned 192 x 128, 5/6 of the work per SM).
  kHopper128x160,
  // SM90, past decode: the swap program on 160-token tiles by 128 weight rows
  // (cuBLASLt's tile at M = 320 on N >= 7168).
  kHopperSwap128x160,
  // SM90, past decode: 256 tokens x 128 weight rows on two consumer warpgroups of
  // two 64-row passes each (DeepGEMM's SM90 tile), never split.
  kHopper256x128,
  // Blackwell (SM100 / SM103): static persistent program on CTA-pair tiles.
  kBlackwellStatic,
  // Blackwell: dynamic tile scheduler with the blocked raster, long large-K runs.
  kBlackwellL2Point,
  // SM103 only: the L2-point program on the 512-row pair tile, the longest runs.
  kBlackwellTileM,
};

// "fp8_hopper_128x128", ..., "fp8_blackwell_l2_point", "fp8_blackwell_tile_m".
const char* program_name(Program program);

struct Plan {
  Program program;
  Arch arch;
  // Output tile of one CTA (Hopper) or one CTA pair (Blackwell), in output
  // coordinates: tile_m rows of `out`, tile_n columns.
  int tile_m = 0;
  int tile_n = 0;
  int tile_k = 0;       // K depth of one pipeline stage (elements)
  bool swap_ab = false; // weights on the MMA's M side (small-M programs)
  // CTAs of a cluster along M / N sharing operand slices by TMA multicast.
  int cluster_m = 1;
  int cluster_n = 1;
  // CTAs of one cluster that share an output tile and split its K loop; the
  // leader adds the others' fp32 partial sums in rank order (deterministic).
  int split_k = 1;
  const char* scheduler = "";  // "static_persistent" or "dynamic"
  const char* raster = "";     // "grouped" or "blocked"
  // grouped raster: consecutive tiles walk `raster_group` tiles along the grouped
  // dimension before moving on; blocked raster: raster_block_m x raster_block_n tiles.
  int raster_group = 1;
  int raster_block_m = 1;
  int raster_block_n = 1;
  int64_t tiles_m = 0;
  int64_t tiles_n = 0;
  int64_t tiles = 0;
  // Hopper: resident CTAs, or with split-K the resident clusters (one tile each at
  // a time); Blackwell: resident CTA pairs.
  int64_t workers = 0;
  // Rounds of tiles over the workers: ceil(tiles / workers), or with multicast
  // pairs ceil(pairs of tiles / resident pairs).
  int64_t waves = 0;
  int grid = 0;         // CTAs launched
  // Hopper: K elements between promotions of the FP8 tensor-core partial sums into
  // the fp32 accumulator, 64 or 128 (kHopperLongPromotionMinK); 0 elsewhere.
  int promotion_k = 0;
  // The region of out this plan's program covers: rows [0, head_m) and columns
  // [0, head_n). Both are M and N, unless the problem runs as two regions
  // (kHopperRegionMinGainPercent), of rows or of columns: then one of them is
  // fewer, and what is past it is a problem of its own, launched after this one:
  // plan(M - head_m, N, ...) on the rows of a, d and out from head_m on, or
  // plan(M, N - head_n, ...) on the rows of b and lora_b, the entries of bias and
  // the columns of out from head_n on.
  int64_t head_m = 0;
  int64_t head_n = 0;
};

// The plan of one given Hopper program for a problem: what plan() does once it
// has chosen the program (tiles, split-K, grid). split 0 lets the plan choose
// split-K; 1, 2, 4 or 8 forces it (experiments that compare on one shape; more
// than the program's limit throws InvalidArgument). rows 0 lets the plan choose
// the rows of P per tile (the operand on wgmma's 64-row side); otherwise the
// program's block, or for the 64-row swap programs a multiple of 8 below it.
// promotion_k 0 lets the plan choose (64, or 128 from a long K); 64 or 128 forces it.
// multicast 0 lets the plan choose whether CTA pairs share a tile of one operand
// by TMA multicast: a pair lying along N (cluster_n = 2) shares its tile of a, one
// lying along M (cluster_m = 2) its tile of b. 1 forces it off; 2 on, the pairs
// lying the program's usual way (along N, with swap along M; fp8_hopper_64x96 and
// fp8_hopper_128x80 along M); kMulticastAlongM / kMulticastAlongN on, lying that
// way (either for fp8_hopper_128x112, the others' own way only). InvalidArgument
// where the plan cannot: the other way, with split-K, narrow or partial shared
// tiles, or a single tile along the pairs.
inline constexpr int kMulticastAlongM = 3;
inline constexpr int kMulticastAlongN = 4;
Plan plan_sm90_program(Program program, int64_t M, int64_t N, int64_t K, int num_sms, int split = 0,
                       int rows = 0, int promotion_k = 0, int multicast = 0);

// The program for a problem (for its region [0, head_m) x [0, head_n) of out;
// the rest is plan(M - head_m, N, ...) or plan(M, N - head_n, ...)). r is the LoRA
// rank (0 when the adapter is off; r does not change the choice today but is part
// of the key). num_sms is the device's multiprocessor count. dram_gbps is its peak
// DRAM bandwidth in GB/s (memory clock x bus width x 2, as the launcher reads it):
// boards of one architecture and SM count differ in it (H100 SXM 3350, H200 4800 by
// their specifications), and the plan is tuned on the H200; 0 means unknown and
// plans as for the H200 (src/plan/rules.h kHopperSlowDram*).
// Throws cake::InvalidArgument on num_sms < 1, dram_gbps < 0 or non-positive sizes;
// never checks the argument contract itself. Each thread keeps its last plans (64,
// by problem): a repeated problem costs a lookup, not the search.
Plan plan(int64_t M, int64_t N, int64_t K, int64_t r, Arch arch, int num_sms, int dram_gbps = 0);

}  // namespace cake
