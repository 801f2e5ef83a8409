#include "sm90/launch.h"

#include <cuda.h>

#include <algorithm>
#include <string>

#include "cake/errors.h"
#include "launch/device.h"
#include "launch/tensor_map.h"
#include "sm90/config.h"
#include "sm90/programs.h"
#include "sm90/run_program.h"

namespace cake::sm90 {
#if CAKE_TIMELINE
unsigned long long* g_timeline = nullptr;
#endif
namespace {

// One program on a region of out whose rows are ldo elements apart.
template <typename Shape>
void launch_shape(const Plan& plan, const MmFp8LoraArgs& a, int64_t ldo, int region, cudaStream_t stream) {
  constexpr bool swap = Shape::kSwapAB;
  const int64_t lda = a.lda ? a.lda : a.K;
  const int64_t ldb = a.ldb ? a.ldb : a.K;
  const bool adapter = a.lora_scale != nullptr;
  const int64_t rows_p = swap ? a.N : a.M;
  const int64_t rows_q = swap ? a.M : a.N;

  auto fp8 = [&](const void* base, int64_t rows, int64_t pitch, int box_rows) {
    return make_tensor_map(base, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, rows, a.K, pitch, box_rows,
                           kStageK);
  };
  // r = 32 reads a 64-wide box: TMA fills the columns past r with zeros, and the
  // consumers issue only r / 16 instructions, so those zeros are never used.
  auto bf16 = [&](const void* base, int64_t rows, int box_rows) {
    return make_tensor_map(base, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, rows, a.r, a.r * 2, box_rows,
                           kLoraChunk);
  };

  // An operand with fewer rows than its tile (decode, small M): boxes of just
  // those rows, rounded up to 8. P tiles may be narrower than the block (the plan's
  // weight rows for the 64-row swap programs).
  auto ceil8 = [](int64_t x) { return (x + 7) / 8 * 8; };
  const int64_t tile_p = swap ? plan.tile_n : plan.tile_m;
  const bool narrow = tile_p < Shape::kBlockP;
  const int p_rows = static_cast<int>(std::min<int64_t>(tile_p, ceil8(rows_p)));
  const int q_rows = static_cast<int>(std::min<int64_t>(Shape::kBlockQ, ceil8(rows_q)));
  // Multicast: each CTA of a pair loads half of the shared tile, P (a pair lying
  // along Q) or Q (lying along P; P runs along M, or with swap along N). The plan
  // lays pairs only the ways a program is built for (config.h kPairsShareQ,
  // kPairsBothWays); run_program refuses any other.
  const int pairs_p = swap ? plan.cluster_n : plan.cluster_m, pairs_q = swap ? plan.cluster_m : plan.cluster_n;
  const int multicast = pairs_p * pairs_q;
  const bool share_q = multicast > 1 ? pairs_p > 1 : Shape::kPairsShareQ;
  const int parts_p = pairs_q, parts_q = pairs_p;
  const int p_box = p_rows / parts_p, q_box = q_rows / parts_q;
  // The last tile along P and along Q: boxes of the operand's rows in it (rounded
  // up to 8), so that TMA fills no rows past the operand (program.cuh, producer).
  const int64_t tiles_p = swap ? plan.tiles_n : plan.tiles_m, tiles_q = swap ? plan.tiles_m : plan.tiles_n;
  const int p_last_box = static_cast<int>(ceil8((rows_p - (tiles_p - 1) * tile_p + parts_p - 1) / parts_p));
  const int q_last_box = static_cast<int>(ceil8((rows_q - (tiles_q - 1) * Shape::kBlockQ + parts_q - 1) / parts_q));
  const void* p_base = swap ? static_cast<const void*>(a.b) : a.a;
  const void* q_base = swap ? static_cast<const void*>(a.a) : a.b;
  TensorMaps maps{};
  maps.p = fp8(p_base, rows_p, swap ? ldb : lda, p_box);
  maps.q = fp8(q_base, rows_q, swap ? lda : ldb, q_box);
  maps.p_last = p_last_box == p_box ? maps.p : fp8(p_base, rows_p, swap ? ldb : lda, p_last_box);
  maps.q_last = q_last_box == q_box ? maps.q : fp8(q_base, rows_q, swap ? lda : ldb, q_last_box);
  if (adapter) {
    const __nv_bfloat16* lora_p = swap ? a.lora_b : a.d;
    const __nv_bfloat16* lora_q = swap ? a.d : a.lora_b;
    maps.lora_p = bf16(lora_p, rows_p, p_box);
    maps.lora_q = bf16(lora_q, rows_q, q_box);
    maps.lora_p_last = p_last_box == p_box ? maps.lora_p : bf16(lora_p, rows_p, p_last_box);
    maps.lora_q_last = q_last_box == q_box ? maps.lora_q : bf16(lora_q, rows_q, q_last_box);
  }
  // Each consumer warpgroup stores its 64 rows of P: boxes of 64 (M) x 64 (N), or
  // with swap of its kWarpgroupQ tokens x 64 (N), staged in 128-byte swizzled rows.
  // Narrow tiles store their p_rows columns of out, staged as plain rows of that
  // many columns; so do Q blocks of other than whole 64-column boxes (kPlainOut),
  // with each consumer warpgroup's kWarpgroupQ columns.
  const bool plain = narrow || Shape::kPlainOut;
  maps.out = make_tensor_map(a.out, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a.M, a.N, ldo * 2,
                             swap ? Shape::kWarpgroupQ : 64,
                             narrow ? p_rows : Shape::kPlainOut ? Shape::kWarpgroupQ : 64,
                             plain ? CU_TENSOR_MAP_SWIZZLE_NONE : CU_TENSOR_MAP_SWIZZLE_128B);

  ProgramParams params{};
  params.tiles_p = static_cast<uint32_t>(tiles_p);
  params.tiles_q = static_cast<uint32_t>(tiles_q);
  params.raster_group = static_cast<uint32_t>(plan.raster_group);
  params.k_blocks = static_cast<uint32_t>((a.K + kStageK - 1) / kStageK);
  params.lora_chunks = adapter ? static_cast<uint32_t>((a.r + kLoraChunk - 1) / kLoraChunk) : 0;
  params.lora_steps = adapter ? static_cast<uint32_t>(a.r / 16) : 0;
  params.n = static_cast<uint32_t>(a.N);
  params.split = static_cast<uint32_t>(plan.split_k);
  params.multicast = static_cast<uint32_t>(multicast);
  params.p_rows = static_cast<uint32_t>(p_rows);
  params.q_rows = static_cast<uint32_t>(q_rows);
  params.p_last_rows = static_cast<uint32_t>(p_last_box == p_box ? 0 : p_last_box);
  params.q_last_rows = static_cast<uint32_t>(q_last_box == q_box ? 0 : q_last_box);
  params.narrow = narrow;
#if CAKE_TIMELINE
  params.timeline = g_timeline && region < kTimelineRegions ? g_timeline + region * kTimelineRegionWords : nullptr;
#else
  (void)region;
#endif
  // Each P tile is read by the tiles along Q (but once per pair where pairs share
  // it), each Q tile by those along P: an operand read once streams, evict first.
  // (H200, r = 128, side by side with normal hints, two runs each: M <= 64 0.979,
  // 128 <= M <= 512 0.984, M = 128, N = 6144 10.72 -> 10.49 us; marking the other
  // operand evict last as well measured the same, and would keep its lines ahead of
  // later kernels' data.)
  params.p_hint = tiles_q <= parts_p ? kEvictFirst : kEvictNormal;
  params.q_hint = tiles_p <= parts_q ? kEvictFirst : kEvictNormal;
  params.a_scale = a.a_scale;
  params.b_scale = a.b_scale;
  params.lora_scale = a.lora_scale;
  params.bias = a.bias;
  run_program<Shape>(maps, params, plan.promotion_k, share_q, plan.grid, current_device(), stream);
}

// Rows [m0, M) of a region as a problem of their own: those rows of a, d and out.
MmFp8LoraArgs rows_from(MmFp8LoraArgs args, int64_t m0, int64_t ldo) {
  args.a += m0 * (args.lda ? args.lda : args.K);
  if (args.d) args.d += m0 * args.r;
  args.out += m0 * ldo;
  args.M -= m0;
  return args;
}

// Columns [n0, N) of a region as a problem of their own: those rows of b and
// lora_b, entries of bias and columns of out (n0 is a multiple of 8: 16-byte
// aligned for TMA).
MmFp8LoraArgs columns_from(MmFp8LoraArgs args, int64_t n0) {
  args.b += n0 * (args.ldb ? args.ldb : args.K);
  if (args.lora_b) args.lora_b += n0 * args.r;
  if (args.bias) args.bias += n0;
  args.out += n0;
  args.N -= n0;
  return args;
}

// The plan's program on its head region, then the rest of the region planned and
// launched the same way.
void launch_region(const Plan& plan, const MmFp8LoraArgs& args, int64_t ldo, int num_sms, int dram_gbps, int region,
                   cudaStream_t stream) {
  MmFp8LoraArgs head = args;
  if (plan.head_m > 0) head.M = std::min(plan.head_m, args.M);
  if (plan.head_n > 0) head.N = std::min(plan.head_n, args.N);
  const bool hopper_program =
      with_shape(plan.program, [&](auto shape) { launch_shape<decltype(shape)>(plan, head, ldo, region, stream); });
  if (!hopper_program)
    throw UnsupportedArchitecture(std::string("cake: ") + program_name(plan.program) + " is not a Hopper program");
  if (head.M == args.M && head.N == args.N) return;
  const MmFp8LoraArgs rest = head.M < args.M ? rows_from(args, head.M, ldo) : columns_from(args, head.N);
  launch_region(cake::plan(rest.M, rest.N, rest.K, rest.lora_scale ? rest.r : 0, Arch::SM90, num_sms, dram_gbps),
                rest, ldo, num_sms, dram_gbps, region + 1, stream);
}

}  // namespace

void launch(const Plan& plan, const MmFp8LoraArgs& args, int num_sms, int dram_gbps, cudaStream_t stream) {
  launch_region(plan, args, args.N, num_sms, dram_gbps, 0, stream);
}

}  // namespace cake::sm90
