// The Hopper program: FP8 GEMM with the LoRA correction fused, one pass over out.
//
//   out = alpha * (a @ b^T) + s * (d @ lora_b^T) [+ bias],  alpha = a_scale * b_scale
//
// Warp-specialised and persistent. Clusters walk the output tiles (scheduler.cuh):
// either `split` CTAs that share each tile and split its K loop (split-K), or
// `multicast` CTAs on neighbouring tiles along Q that share their P tile (along P
// sharing their Q tile: kShareQ, a kernel of its own, config.h kPairsShareQ and
// kPairsBothWays), each loading a slice of it into all of them by TMA multicast
// (less traffic from L2 per output element); both 1: one CTA per tile, no
// cluster. Per CTA:
//   warpgroup 0      producer: one thread streams 128-byte-wide K slices of both
//                    operands into a ring of shared-memory stages with TMA (one
//                    slice of each per stage, two in the 64-row swap programs:
//                    config.h kStageBlocks), completing on mbarriers (an operand
//                    that only this CTA or pair reads with an evict-first L2
//                    hint, launch.cpp): first, on
//                    the cluster's leader when the adapter is on, r/64 slices of
//                    d/lora_b (BF16), then its share of the K loop of a/b (FP8)
//                    through the same ring, and ring stages for the other CTAs'
//                    partial sums (split-K).
//   warpgroups 1..   consumers: each owns 64 rows of the P operand (and, where the
//                    shape splits Q over kQWarpgroups of them, its slice of Q). The
//                    adapter slices run first, as BF16 wgmma in the promotion
//                    registers, and start the fp32 accumulator at s * (d @ lora_b^T);
//                    FP8 wgmma partial sums are then added into it times alpha every
//                    64 or 128 K (Hopper's FP8 tensor-core accumulation keeps fewer
//                    bits than fp32; the plan's promotion_k).
//   split-K          the leader's producer reserves kPartialStages stages of its
//                    ring per other CTA of the cluster (or one stage for several:
//                    which stages hold what is ring.h's), expecting their bytes, and
//                    tells that CTA (`landing_free`); its consumers acknowledge
//                    (`landing_taken`, so that the next tile's signal cannot come
//                    before every warp has seen this one), write their fp32
//                    partial sums straight from registers into those stages
//                    (st.async, completing on the first stage's full barrier) and
//                    go on to their next tile; the leader's consumers take the
//                    stages like any other and add the sums in rank order
//                    (deterministic).
//   epilogue         leader only, per consumer warpgroup: acc + bias in fp32, rounded
//                    once to bf16, staged in swizzled shared memory and written by a
//                    TMA store (tails clipped by TMA) that overlaps the next tile's
//                    main loop. In the one-set programs the next tile's adapter (or
//                    first K block) runs on the tensor cores meanwhile (the carry).
// The adapter is on when lora_scale is given and its value is not +-0, read on the
// device after the grid-dependency wait: off, the instruction stream is exactly
// the base program's, hence bitwise identical output.
//
// P is the operand on wgmma's 64-row side. Without swap P = a, Q = b (out rows
// come from P); with swap (small M) P = b, Q = a and the epilogue transposes.
#pragma once

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "sm90/config.h"
#include "sm90/primitives.cuh"
#include "sm90/ring.h"
#include "sm90/run_program.h"
#include "sm90/scheduler.cuh"
#include "sm90/timeline.cuh"

namespace cake::sm90 {

inline constexpr int kProducerRegs = 40;
// Registers per thread a launch of `threads` threads can give each: 65536 / threads,
// a multiple of 8, at most 255 (168 for 384 threads: 64512, not the whole file).
// With one consumer warpgroup ptxas gives fewer (232), which the cap below covers.
constexpr int launch_regs(int threads) { return (65536 / threads > 255 ? 255 : 65536 / threads) / 8 * 8; }
// Registers per consumer thread after the producer gives its share back: what the
// launch gave the CTA, less the producer's, split over the consumer warpgroups
// (multiple of 8, <= 232). Counting the whole 64K file instead would ask for more
// than the CTA holds whenever the producer keeps more than 40 (two consumer
// warpgroups at 232 and a 48-register producer: the consumers' allocation waited
// forever).
constexpr uint32_t consumer_regs(int consumer_warpgroups) {
  const int threads = 128 * (consumer_warpgroups + 1);
  const int regs = (threads * launch_regs(threads) - 128 * kProducerRegs) / (128 * consumer_warpgroups) / 8 * 8;
  return regs > 232 ? 232 : regs;
}

// kPromotionMmas: 32-deep FP8 wgmma per promotion, 2 (64 K) or 4 (128 K, a stage).
// kShareQ: pairs lie along P and share the Q tile (instead of along Q, sharing
// P). Compile time, as the promotion: decided at run time in the producer's loads
// and the consumers' tiles it cost 1-2% on the H200 everywhere (M <= 64 1.024).
template <typename Shape, int kPromotionMmas, bool kShareQ>
__global__ void __launch_bounds__(Shape::kThreads, 1)
    fp8_lora_program(const __grid_constant__ TensorMaps maps, const ProgramParams params) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  constexpr int kStages = Shape::kStages;
  constexpr int kBlockP = Shape::kBlockP;
  constexpr int kBlockQ = Shape::kBlockQ;
  // Not turned, on a Q block that is not whole 64-column boxes of out (e.g. 80, 96):
  // each consumer warpgroup's output is staged and stored as one box of plain rows.
  constexpr bool kPlainOut = Shape::kPlainOut;
  constexpr int kPBytes = kBlockP * kRowBytes;
  // P tiles start every p_step rows: the block, or narrow tiles' p_rows.
  const uint32_t p_step = Shape::kNarrowTiles ? params.p_rows : kBlockP;
  // A stage is kStageBlocks K blocks, each a P slice then a Q slice.
  constexpr int kStageBlocks = Shape::kStageBlocks;
  constexpr int kBlockBytes = Shape::kBlockBytes;
  constexpr int kStageBytes = Shape::kStageBytes;
  constexpr int kRingBytes = kStages * kStageBytes;
  constexpr int kConsumerThreads = Shape::kConsumerWarpgroups * 128;
  constexpr int kConsumerWarps = kConsumerThreads / 32;
  // Each consumer warpgroup computes 64 rows of P by kWarpgroupQ rows of Q.
  constexpr int kWarpgroupQ = Shape::kWarpgroupQ;
  constexpr int kAccRegs = kWarpgroupQ / 2;  // 64 x kWarpgroupQ fp32 over 128 threads
  using Ops = MmaOps<kWarpgroupQ>;
  constexpr int kBlockMmas = kStageK / 32;  // 32-deep FP8 wgmma per K block

  // Shared memory: [ring of stages, each a P slice then a Q slice][epilogue staging]
  // [barriers]. Every slice is 1024-byte aligned (the 128-byte swizzle's period).
  extern __shared__ uint8_t smem_raw[];
  uint8_t* smem = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t{1023});
  uint8_t* ring = smem;
  uint8_t* epilogue = ring + kRingBytes;  // bf16 output staging
  uint64_t* full = reinterpret_cast<uint64_t*>(epilogue + Shape::kEpilogueBytes);
  uint64_t* empty = full + kStages;
  uint64_t* landing_free = empty + kStages;      // not the leader: its stages are reserved
  uint64_t* landing_taken = landing_free + 1;    // leader: every other warp has seen that

  // Read through a shuffle so that the compiler knows it is warp-uniform: what
  // derives from it (the consumers' wgmma descriptors) then lives in uniform
  // registers instead of being rebuilt in vector registers for every instruction.
  const int warpgroup = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x / 128), 0);
  const int thread = threadIdx.x % 128;
  const bool has_adapter = params.lora_scale != nullptr;
  const uint32_t split = params.split;
  const uint32_t multicast = params.multicast;  // split or multicast is 1
  const uint32_t rank = split > 1 ? cluster_rank() : 0;  // rank 0 leads the cluster
  const bool leader = rank == 0;

  // The last tile along P / Q loads through its own maps where its boxes are
  // shorter (launch.cpp); otherwise through the others, whose descriptors are
  // then the only ones prefetched.
  const bool p_short = params.p_last_rows != 0, q_short = params.q_last_rows != 0;
  auto prefetch = [](const CUtensorMap& map) {
    cute::prefetch_tma_descriptor(reinterpret_cast<const cute::TmaDescriptor*>(&map));
  };

  // Prologue: nothing here reads memory an earlier kernel may write.
  if (threadIdx.x == 0) {
    prefetch(maps.p);
    prefetch(maps.q);
    if (p_short) prefetch(maps.p_last);
    if (q_short) prefetch(maps.q_last);
    if (leader) prefetch(maps.out);
    if (has_adapter && leader) {
      prefetch(maps.lora_p);
      prefetch(maps.lora_q);
      if (p_short) prefetch(maps.lora_p_last);
      if (q_short) prefetch(maps.lora_q_last);
    }
    for (int s = 0; s < kStages; ++s) {
      cutlass::arch::ClusterBarrier::init(&full[s], 1);
      // Multicast: a stage is refilled (in every CTA) once every CTA has read it.
      cutlass::arch::ClusterBarrier::init(&empty[s], kConsumerWarps * multicast);
    }
    if (split > 1) {
      cutlass::arch::ClusterBarrier::init(landing_free, 1);
      cutlass::arch::ClusterBarrier::init(landing_taken, (split - 1) * kConsumerWarps);
    }
    cutlass::arch::fence_barrier_init();
  }
  __syncthreads();
  const bool clustered = split * multicast > 1;
  if (clustered) {
    // Other CTAs arrive on this CTA's barriers: all are initialised first.
    cluster_arrive_relaxed();
    cluster_wait();
  }

  // The first tile is decoded before the wait (integer divisions), so that it
  // overlaps the previous kernel's tail instead of delaying the first load (H200,
  // r = 128, side by side in both orders, two runs each: M = 64, N = K = 4096
  // 8.12 -> 7.85-7.87 us; M <= 64 geomean 0.985-0.987).
  TileScheduler scheduler(params.tiles_p, params.tiles_q, params.raster_group, kShareQ ? multicast : 1,
                          kShareQ ? 1 : multicast, split * multicast);
  scheduler.settle();

  grid_dependency_wait();
  // Uniform across the cluster: every thread reads the same scalar. A tile starts
  // with the adapter's slices where it is not +-0, so the first load waits for it.
  const float lora_scale = has_adapter ? *params.lora_scale : 0.0f;
  // The leader computes the adapter.
  auto use_adapter = [&] { return leader && lora_scale != 0.0f; };
  // Timelines record the launches with the adapter on (the benchmark's main variant).
  CAKE_TIMELINE_ONLY(static_assert(Shape::kConsumerWarpgroups <= kTimelineWarpgroups, "timeline words per CTA");
                     Timeline timeline;
                     unsigned long long* const timeline_cta =
                         params.timeline && lora_scale != 0.0f && blockIdx.x < kTimelineCtas
                             ? params.timeline + blockIdx.x * kTimelineCtaWords
                             : nullptr;)

  // This CTA's share of the K loop, in ring stages: all of it without split-K, a
  // share of it with (ring.h).
  using Ring = sm90::Ring<Shape>;
  const uint32_t k_stages = Ring::stages(params.k_blocks);
  const uint32_t lora_stages = Ring::stages(params.lora_chunks);
  uint32_t lead_units = 0, units = k_stages, kb_begin = 0, kb_end = k_stages;
  if (split > 1) {
    lead_units = lora_scale != 0.0f ? lora_stages : 0;
    units += lead_units;
    kb_begin = Ring::k_stage_of(rank, split, units, lead_units);
    kb_end = Ring::k_stage_of(rank + 1, split, units, lead_units);
  }

  // Multicast: the cluster's tile along Q (along P where pairs share Q) is
  // `multicast` of them, this CTA's the one of its rank (read where used: a
  // register held over the loops spills in the 40-register producer).
  auto own_p = [&](uint32_t tp) { return kShareQ && multicast > 1 ? tp * multicast + cluster_rank() : tp; };
  auto own_q = [&](uint32_t tq) { return !kShareQ && multicast > 1 ? tq * multicast + cluster_rank() : tq; };

  if (warpgroup == 0) {
    // ---------------------------------------------------------------- producer
    cutlass::arch::warpgroup_reg_dealloc<kProducerRegs>();
    if (thread == 0) {
      CAKE_TIMELINE_ONLY(Timeline::start(timeline_cta));
      uint32_t stage = 0, phase = 0;
      // An operand shorter than its block (few tokens), and the last tile along P
      // and along Q where the operand ends inside it, are loaded as short boxes
      // (their own tensor maps, `*_last`): the rows past the operand are never
      // written (they only feed outputs that are not stored). TMA would fill them
      // with zeros, slowly: about 2.3 ns per 128-byte row on the H200, so that a
      // box of 8 real token rows of 64 took 0.13 us more per K block.
      // Multicast (pairs, the plan's only cluster of them): this CTA loads the
      // rank-th part of the shared tile (its box is a half of the P rows, or of the
      // Q rows where pairs share Q) into the same place in both CTAs; the whole
      // tile arrives in each. A CTA past the other operand's last tile (an odd
      // number of them) loads none of that operand.
      // This tile's bytes per stage and the first row of this CTA's part of the
      // shared box: those of whole tiles, computed once, unless it is a last one.
      const uint32_t whole_bytes = (params.p_rows + params.q_rows) * kRowBytes;
      const uint32_t whole_slice_row =
          multicast > 1 ? cluster_rank() * ((kShareQ ? params.q_rows : params.p_rows) / 2) : 0;
      uint32_t bytes = whole_bytes, slice_row = whole_slice_row;
      // A stage's blocks (kStageBlocks, or one at the end of an odd number of K
      // blocks or adapter slices) start at K element k, `step` apart.
      auto load = [&](auto blocks_c, const CUtensorMap* p_map, const CUtensorMap* q_map, int k, int step, int row_p,
                      int row_q) {
        constexpr int kBlocks = decltype(blocks_c)::value;
        cutlass::arch::ClusterBarrier::wait(&empty[stage], phase ^ 1);
        Barrier* bar = reinterpret_cast<Barrier*>(&full[stage]);
        cutlass::arch::ClusterTransactionBarrier::arrive_and_expect_tx(&full[stage], bytes * kBlocks);
        // The shared operand's part by multicast (pairs), the other operand's box
        // alone (none past its last tile).
        auto fill = [&](auto shared_c, const CUtensorMap* map, uint8_t* dst, int k, int row, uint64_t hint) {
          if constexpr (decltype(shared_c)::value) {
            if (multicast > 1) {
              tma_load_multicast(map, bar, 0b11, dst + slice_row * kRowBytes, k, row + static_cast<int>(slice_row),
                                 hint);
              return;
            }
          } else {
            if (!map) return;
          }
          tma_load(map, bar, dst, k, row, hint);
        };
#pragma unroll
        for (int h = 0; h < kBlocks; ++h) {
          uint8_t* const p_dst = ring + stage * kStageBytes + h * kBlockBytes;
          fill(std::integral_constant<bool, !kShareQ>{}, p_map, p_dst, k + h * step, row_p, params.p_hint);
          fill(std::integral_constant<bool, kShareQ>{}, q_map, p_dst + kPBytes, k + h * step, row_q, params.q_hint);
        }
        if (++stage == kStages) stage = 0, phase ^= 1;
      };
      uint32_t taken_phase = 0;
      bool signalled = false;  // landing_free given for an earlier tile
      for (; scheduler.valid(); scheduler.advance()) {
        const uint32_t tp = own_p(scheduler.tp), tq = own_q(scheduler.tq);
        const bool p_last = p_short && tp + 1 == params.tiles_p, q_last = q_short && tq + 1 == params.tiles_q;
        // Past the operand's last tile: only this CTA's part of the shared tile.
        const bool p_none = kShareQ && tp >= params.tiles_p, q_none = !kShareQ && tq >= params.tiles_q;
        const int row_p = static_cast<int>(tp * p_step), row_q = static_cast<int>(tq * kBlockQ);
        // The adapter's slices, then the tile's K blocks.
        // Stages [begin, end) of `blocks` blocks `step` elements of K apart: whole
        // stages, and where the number is odd the last stage's one block (the per-stage
        // path stays the whole stages' alone: the producer's instructions per stage are
        // part of what a stage costs).
        auto loads = [&](const CUtensorMap* mp, const CUtensorMap* mq, uint32_t begin, uint32_t end, uint32_t blocks,
                         int step) {
          const bool odd_end = Ring::ends_odd(begin, end, blocks);
          const uint32_t whole_end = end - (odd_end ? 1u : 0u);
          for (uint32_t s = begin; s < whole_end; ++s)
            load(std::integral_constant<int, kStageBlocks>{}, mp, mq, static_cast<int>(s * kStageBlocks) * step, step,
                 row_p, row_q);
          if constexpr (kStageBlocks > 1) {
            if (odd_end)
              load(std::integral_constant<int, 1>{}, mp, mq, static_cast<int>(whole_end * kStageBlocks) * step, step,
                   row_p, row_q);
          }
        };
        auto stream = [&](const CUtensorMap* mp, const CUtensorMap* mq, const CUtensorMap* mlp,
                          const CUtensorMap* mlq) {
          if (use_adapter()) loads(mlp, mlq, 0, lora_stages, params.lora_chunks, kLoraChunk);
          loads(mp, mq, kb_begin, kb_end, params.k_blocks, kStageK);
        };
        // Tiles with whole boxes (nearly all) load as they did before the short
        // boxes: bytes and rank-th part computed once per CTA, not per tile and
        // load. (H200, r = 128, side by side, us: with them per tile and load and a
        // division at kernel start, M = 1, N = 4096 7.10 against 6.93, 64 x 64 in
        // pairs at M = 128 9.46 against 8.85; as here 6.97 against 6.89, 8.90
        // against 8.80. One call site for both branches measured the same within
        // the spread.)
        if (p_last || q_last || p_none || q_none) {
          // Rows per CTA's box (of the shared tile: its part) and what arrives.
          const uint32_t p_box = p_none   ? 0
                                 : p_last ? params.p_last_rows
                                          : params.p_rows / (kShareQ ? 1 : multicast);
          const uint32_t q_box = q_none   ? 0
                                 : q_last ? params.q_last_rows
                                          : params.q_rows / (kShareQ ? multicast : 1);
          bytes = (kShareQ ? p_box + q_box * multicast : p_box * multicast + q_box) * kRowBytes;
          slice_row = multicast > 1 ? cluster_rank() * (kShareQ ? q_box : p_box) : 0;
          stream(p_none ? nullptr : p_last ? &maps.p_last : &maps.p, q_none ? nullptr : q_last ? &maps.q_last : &maps.q,
                 p_none ? nullptr : p_last ? &maps.lora_p_last : &maps.lora_p,
                 q_none ? nullptr : q_last ? &maps.lora_q_last : &maps.lora_q);
        } else {
          bytes = whole_bytes;
          slice_row = whole_slice_row;
          stream(&maps.p, &maps.q, &maps.lora_p, &maps.lora_q);
        }
        if (split > 1 && leader) {
          // An mbarrier phase cannot be skipped: signal this tile only once every
          // warp of the others has seen the last signal.
          if (signalled) {
            cutlass::arch::ClusterBarrier::wait(landing_taken, taken_phase);
            taken_phase ^= 1;
          }
          signalled = true;
          constexpr uint32_t kPer = Ring::kPer;
          for (uint32_t r = 1; r < split; r += kPer) {
            // Stages for the partial sums of ranks r.. (kPartialsPerStage of them, or
            // the rest), which they write (and complete). All their bytes complete on
            // the first stage's barrier.
            const uint32_t ranks = split - r < kPer ? split - r : kPer;
            for (int s = 0; s < Shape::kPartialStages; ++s) {
              cutlass::arch::ClusterBarrier::wait(&empty[stage], phase ^ 1);
              if (s == 0)
                cutlass::arch::ClusterTransactionBarrier::arrive_and_expect_tx(&full[stage],
                                                                               ranks * Shape::kPartialBytes);
              else
                cutlass::arch::ClusterBarrier::arrive(&full[stage]);
              if (++stage == kStages) stage = 0, phase ^= 1;
            }
            for (uint32_t j = 0; j < ranks; ++j) cutlass::arch::ClusterBarrier::arrive(landing_free, r + j, 1);
          }
        }
      }
      // Every load is issued: the next kernel may start its prologue.
      launch_dependents();
    }
  } else {
    // ---------------------------------------------------------------- consumers
    constexpr uint32_t kConsumerRegs = consumer_regs(Shape::kConsumerWarpgroups);
    cutlass::arch::warpgroup_reg_alloc<kConsumerRegs>();
    const int cw = warpgroup - 1;
    const int wg_p = cw / Shape::kQWarpgroups;  // this warpgroup's 64 * kPasses rows of P
    const int wg_q = cw % Shape::kQWarpgroups;  // and its kWarpgroupQ rows of Q
    const int warp = thread / 32, lane = thread % 32;
    // Read here: their loads' latency overlaps the first stage's.
    const float alpha = *params.a_scale * *params.b_scale;
    // With the adapter on, acc starts from it and each promoted group enters acc
    // times alpha (one fma), so that acc holds the output but for the bias when the K
    // loop ends. Off, the groups are summed and the sum is scaled once in the
    // epilogue, as cuBLASLt's FP8 GEMM without fast accumulation does: the base
    // product is its result bit for bit. Uniform over the cluster (split-K's partial
    // sums are scaled alike), and in a uniform register: the fma costs what an
    // addition does.
    const bool scaled_groups = lora_scale != 0.0f;
    const float group_scale = scaled_groups ? alpha : 1.0f;

    // fp32 sum of the base product, one part per 64-row pass (config.h kPasses).
    constexpr int kPasses = Shape::kPasses;
    constexpr int kPassBytes = 64 * kRowBytes;  // a pass's P rows in a stage
    float accs[kPasses][kAccRegs];
    float(&acc)[kAccRegs] = accs[0];
    // Tensor-core partial sums between promotions. With registers for two sets they
    // alternate: while one set is added into acc the tensor cores fill the other,
    // so a warpgroup does not wait for its own instructions at each promotion.
    // Three consumer warpgroups (152 registers) have room for one set; there the
    // other warpgroups' instructions fill the tensor cores while one promotes.
    // Set 0 then holds the adapter's sum.
    constexpr int kSets = kConsumerRegs >= (kPasses + 2) * kAccRegs + 32 ? 2 : 1;
    float part[kSets][kAccRegs];
    uint32_t stage = 0, phase = 0;
    CAKE_TIMELINE_ONLY(timeline.consumer(timeline_cta, cw, thread));
    // wgmma descriptors of stage 0 (this warpgroup's rows of P and of Q); a stage's
    // are these plus its offset, in the descriptors' 16-byte units.
    const uint64_t desc_p0 = smem_desc(ring + wg_p * kPasses * kPassBytes);
    const uint64_t desc_q0 = smem_desc(ring + kPBytes + wg_q * kWarpgroupQ * kRowBytes);
    auto stage_descs = [&](uint64_t& dp, uint64_t& dq) {
      dp = desc_p0 + stage * (kStageBytes >> 4);
      dq = desc_q0 + stage * (kStageBytes >> 4);
    };

    // Multicast (pairs): in the other CTA too, whose producer writes into this one.
    const uint32_t peer = multicast > 1 ? cluster_rank() ^ 1 : 0;
    auto release = [&](uint32_t s) {
      if (lane == 0) cutlass::arch::ClusterBarrier::arrive(&empty[s]);
      arrive_remote_if(&empty[s], peer, multicast > 1 && lane == 0);
    };
    // Instructions [k0, k0 + kPromotionMmas) of the stage into set `p`, one group.
    auto issue = [&](float (&p)[kAccRegs], uint64_t dp, uint64_t dq, int k0) {
      fence_operands(p);
      cute::warpgroup_arrive();
#pragma unroll
      for (int k = k0; k < k0 + kPromotionMmas; ++k) {
        // Instruction k reads 32 bytes of K block k / kBlockMmas of the stage.
        const int at = k / kBlockMmas * kBlockBytes + k % kBlockMmas * 32;
        mma<typename Ops::Fp8>(desc_advance(dp, at), desc_advance(dq, at), p, k > k0);
      }
      cute::warpgroup_commit_batch();
    };
    // The fences pin the additions between the waits around them: otherwise the
    // compiler sinks them past the next wait and nothing overlaps.
    auto promote_into = [&](float (&a)[kAccRegs], float (&p)[kAccRegs]) {
      fence_operands(p);
#pragma unroll
      for (int i = 0; i < kAccRegs; ++i) a[i] = fmaf(group_scale, p[i], a[i]);
      fence_operands(a);
    };
    auto promote = [&](float (&p)[kAccRegs]) { promote_into(acc, p); };
    static_assert(kPromotionMmas == 2 || kPromotionMmas == 4, "promotion every half stage or every stage");
    constexpr int kStageMmas = kStageBlocks * kBlockMmas;
    // Stages per straight-line block: the two-set programs drain their wgmma queue
    // once per block (H200, r = 128, side by side, two runs each: 8 against 4
    // stages, M = 512, N = 4096, K = 14336 53.0 against 54.6 us; N = K = 8192 62.4
    // against 64.5; 16 stages measured within the spread of 8). Eight K blocks
    // whatever a stage holds.
    // (Programs of several passes with promotions every 64 K: two K blocks, their
    // straight-line code twice a stage's of the others; at eight the compiler kept
    // their sums in local memory. Every 128 K: eight, no spills.)
    constexpr int kUnrollStages = 8 / kStageBlocks / (kPasses > 1 && kPromotionMmas == 2 ? 4 : 1);

    const uint32_t ring_addr = cute::cast_smem_ptr_to_uint(ring);
    // A non-leader follows where the leader's ring stands at the start of each tile
    // and the phase of its own landing_free barrier.
    uint32_t lead_stage = 0, landing_phase = 0;

    // A stage is kGroups promotion groups. Two sets: each group goes into the set
    // the previous one did not; while it runs, the previous group is retired and
    // promoted (and its stage released after the stage's last group). One set: each
    // group waited for, then promoted. Either way the sums enter acc in K order:
    // the pipelining does not change a bit of the result. Groups are numbered within
    // a straight-line block of stages (compile time: the set is a register array).
    // The last stage of an odd number of K blocks holds one block: a stage's first
    // kGroups / kStageBlocks groups (`here`) then.
    constexpr int kGroups = kStageMmas / kPromotionMmas;
    using StageGroups = std::integral_constant<int, kGroups>;
    using BlockGroups = std::integral_constant<int, kGroups / kStageBlocks>;
    uint32_t previous = 0;  // the stage of the group that may still run
    auto group = [&](auto index_c, auto g_c, auto here_c, uint64_t dp, uint64_t dq) {
      constexpr int kIndex = decltype(index_c)::value, kG = decltype(g_c)::value;
      issue(part[kIndex % kSets], dp, dq, kG * kPromotionMmas);
      if constexpr (kSets == 2) {
        if constexpr (kIndex > 0) {
          cute::warpgroup_wait<1>();
          if constexpr (kG == 0) release(previous);
          promote(part[(kIndex - 1) % kSets]);
        }
      } else if constexpr (kPasses == 1) {
        cute::warpgroup_wait<0>();
        if constexpr (kG == decltype(here_c)::value - 1) release(stage);
        promote(part[0]);
      } else {
        // Pass 0 was issued above; each pass waited for and promoted into its part,
        // the next pass issued from the same stage 64 rows on.
        cute::warpgroup_wait<0>();
        promote_into(accs[0], part[0]);
        unroll<kPasses - 1>([&](auto q_c) {
          constexpr int kQ = decltype(q_c)::value + 1;
          issue(part[0], desc_advance(dp, kQ * kPassBytes), dq, kG * kPromotionMmas);
          cute::warpgroup_wait<0>();
          if constexpr (kQ == kPasses - 1 && kG == decltype(here_c)::value - 1) release(stage);
          promote_into(accs[kQ], part[0]);
        });
      }
    };
    // Stage u of a straight-line block, its first `here` groups.
    auto step = [&](auto u_c, auto here_c) {
      constexpr int kU = decltype(u_c)::value, kHere = decltype(here_c)::value;
      CAKE_TIMELINE_ONLY(const uint32_t waited_from = static_cast<uint32_t>(Timeline::clock()));
      cutlass::arch::ClusterBarrier::wait(&full[stage], phase);
      CAKE_TIMELINE_ONLY(timeline.full_wait += static_cast<uint32_t>(Timeline::clock()) - waited_from);
      uint64_t dp, dq;
      stage_descs(dp, dq);
      unroll<kHere>([&](auto g_c) {
        constexpr int kG = decltype(g_c)::value;
        group(std::integral_constant<int, kU * kGroups + kG>{}, g_c, here_c, dp, dq);
      });
      previous = stage;
      if (++stage == kStages) stage = 0, phase ^= 1;
    };
    // A straight-line block of n stages, then its last group retired and promoted.
    auto block = [&](auto n_c, auto here_c) {
      constexpr int kN = decltype(n_c)::value;
      unroll<kN>([&](auto u_c) { step(u_c, here_c); });
      if constexpr (kSets == 2) {
        constexpr int kHere = decltype(here_c)::value;
        cute::warpgroup_wait<0>();
        release(previous);
        promote(part[((kN - 1) * kGroups + kHere - 1) % kSets]);
      }
    };

    // The adapter (leader only): BF16 wgmma over r into set 0 of `part`, the ring's
    // next lora_stages stages, issued back to back as straight-line code for each of
    // the contract's ranks (r = 32: two instructions on one slice; 64: four; 128:
    // four on each of two): with the instructions under runtime conditions ptxas made
    // each wait for the one before it (C7519, warpgroup.arrive injected per
    // instruction). Not waited for here; returns the first stage.
    auto issue_adapter = [&](int p_off = 0) {
      const uint32_t first = stage;
      // kSteps instructions in all, each 32 bytes (16 BF16) of a slice of kSliceSteps.
      auto mmas = [&](auto steps_c) {
        constexpr int kSteps = decltype(steps_c)::value;
        constexpr int kSliceSteps = kLoraChunk * 2 / 32, kStageSteps = kStageBlocks * kSliceSteps;
        constexpr int kLoraStages = (kSteps + kStageSteps - 1) / kStageSteps;
        fence_operands(part[0]);
        unroll<kLoraStages>([&](auto c_c) {
          constexpr int kC = decltype(c_c)::value;
          cutlass::arch::ClusterBarrier::wait(&full[stage], phase);
          uint64_t dp, dq;
          stage_descs(dp, dq);
          dp = desc_advance(dp, p_off);
          cute::warpgroup_arrive();
          constexpr int kHere = kSteps - kC * kStageSteps < kStageSteps ? kSteps - kC * kStageSteps : kStageSteps;
          unroll<kHere>([&](auto k_c) {
            constexpr int kK = decltype(k_c)::value;
            constexpr int kAt = kK / kSliceSteps * kBlockBytes + kK % kSliceSteps * 32;
            mma<typename Ops::Bf16>(desc_advance(dp, kAt), desc_advance(dq, kAt), part[0], kC > 0 || kK > 0);
          });
          cute::warpgroup_commit_batch();
          if (++stage == kStages) stage = 0, phase ^= 1;
        });
      };
      static_assert(kMaxLoraChunks == 2 && kLoraChunk == 64, "one branch per rank of the contract");
      if (params.lora_steps == 8)
        mmas(std::integral_constant<int, 8>{});
      else if (params.lora_steps == 4)
        mmas(std::integral_constant<int, 4>{});
      else
        mmas(std::integral_constant<int, 2>{});
      return first;
    };
    // Its sum retired, its stages released, and acc started from it: acc = s * (d @
    // lora_b^T), to which the K loop adds alpha times each group. With passes, each
    // pass's part of acc from its own replay of the slices, the stages released after
    // the last.
    auto take_adapter = [&](uint32_t first) {
      cute::warpgroup_wait<0>();
      fence_operands(part[0]);
      if constexpr (kPasses == 1) {
        for (uint32_t c = 0; c < lora_stages; ++c) release((first + c) % kStages);
#pragma unroll
        for (int i = 0; i < kAccRegs; ++i) acc[i] = lora_scale * part[0][i];
        fence_operands(acc);
      } else {
#pragma unroll
        for (int i = 0; i < kAccRegs; ++i) accs[0][i] = lora_scale * part[0][i];
        fence_operands(accs[0]);
        // The slices are still in the ring (released below): back to their first
        // stage (its phase: the issue crossed the ring's end at most once) and issued
        // again for the pass's rows, which ends where the first issue ended.
        const uint32_t end_phase = phase;
        unroll<kPasses - 1>([&](auto q_c) {
          constexpr int kQ = decltype(q_c)::value + 1;
          stage = first;
          phase = first + lora_stages >= static_cast<uint32_t>(kStages) ? end_phase ^ 1 : end_phase;
          issue_adapter(kQ * kPassBytes);
          cute::warpgroup_wait<0>();
          fence_operands(part[0]);
#pragma unroll
          for (int i = 0; i < kAccRegs; ++i) accs[kQ][i] = lora_scale * part[0][i];
          fence_operands(accs[kQ]);
        });
        for (uint32_t c = 0; c < lora_stages; ++c) release((first + c) % kStages);
      }
    };

    // The bias (where given, on the leader) is read at each tile's start, so that its
    // loads land during the K loop instead of in the epilogue, where the tensor cores
    // wait for them (H200, r = 128, with a bias against without: read in the epilogue,
    // entry by entry, 1.04-1.09 of the time at M = 512-2048 on the non-turned
    // programs; read here 1.00-1.03). Not turned: the warpgroup's kWarpgroupQ columns
    // as bf16 pairs spread over the warp's lanes (pair 32 * i + lane in bias[i]), each
    // thread's taken by a shuffle in the epilogue; turned: this thread's two P rows,
    // packed (-0, the addition's identity, for none). Held in registers: a producer
    // warp copying them into shared memory made the 40-register producer spill.
    const bool with_bias = params.bias != nullptr && leader;
    constexpr int kBiasRegs = Shape::kSwapAB ? 1 : (kWarpgroupQ / 2 + 31) / 32;
    uint32_t bias[kBiasRegs];
    auto load_bias = [&](uint32_t tp, uint32_t tq) {
      if constexpr (!Shape::kSwapAB) {
        const uint32_t q0 = tq * kBlockQ + wg_q * kWarpgroupQ;
#pragma unroll
        for (int i = 0; i < kBiasRegs; ++i) {
          const uint32_t pair = 32 * i + lane, n = q0 + 2 * pair;  // N is even: a pair is in or out
          bias[i] = 0;
          if (with_bias && pair < kWarpgroupQ / 2 && n < params.n)
            bias[i] = ld_global_nc_u16(params.bias + n) | ld_global_nc_u16(params.bias + n + 1) << 16;
        }
      } else {
        const uint32_t n = tp * p_step + wg_p * 64 + 16 * warp + lane / 4;  // and n + 8
        const uint32_t lo = with_bias && n < params.n ? ld_global_nc_u16(params.bias + n) : 0x8000u;
        const uint32_t hi = with_bias && n + 8 < params.n ? ld_global_nc_u16(params.bias + n + 8) : 0x8000u;
        bias[0] = lo | hi << 16;
      }
    };

    // The next tile's first unit (its adapter slices where the adapter is on, else
    // its first K block) may run on the tensor cores during this tile's epilogue
    // (the carry, in the epilogue): `carried` says that acc starts from it. The
    // adapter is on or off for the whole launch, so whether the unit was a K block
    // follows from `adapter`.
    bool carried = false;
    for (; scheduler.valid(); scheduler.advance()) {
      const uint32_t tp = own_p(scheduler.tp), tq = own_q(scheduler.tq);
      CAKE_TIMELINE_ONLY(timeline.next_tile(tp, tq); timeline.stamp(Timeline::kStart));
      load_bias(tp, tq);
      // The adapter first (the producer streams its slices before the K blocks), so
      // that part is free when the K loop ends and acc then holds the output but for
      // the bias. (On the split-K leader it takes the place of K blocks, the units
      // being split evenly over the cluster.)
      const bool adapter = use_adapter();
      if (!carried) {
        if (adapter) {
          take_adapter(issue_adapter());
        } else {
#pragma unroll
          for (int q = 0; q < kPasses; ++q)
#pragma unroll
            for (int i = 0; i < kAccRegs; ++i) accs[q][i] = 0.0f;
        }
      }
      CAKE_TIMELINE_ONLY(timeline.stamp(Timeline::kAdapterRetired));

      // Base: FP8 K loop. kUnrollStages stages run as straight-line code with the
      // groups software-pipelined across them, so that the tensor cores always
      // hold this warpgroup's next group while it promotes (the compiler follows
      // wgmma groups only within straight-line code: across a loop back edge it
      // serialises every wgmma); the queue drains once per kUnrollStages stages.
      // Two sets: half blocks for the tail and, in every other consumer warpgroup,
      // first, so that its drains fall mid-block of the others' and the tensor cores
      // always hold some warpgroup's groups (H200, r = 128, side by side, two runs
      // each: M = 512, N = 4096, K = 14336 52.4 / 52.6 -> 51.3 / 50.2 us; N = K = 8192
      // 60.4 / 60.6 -> 60.0 / 59.4). One call site per block size: each is
      // straight-line code the size of its stages.
      constexpr uint32_t kHalf = kUnrollStages / 2;
      bool skew = kSets == 2 && Shape::kConsumerWarpgroups > 1 && cw % 2 == 1;
      const bool half_last = Ring::ends_odd(kb_begin, kb_end, params.k_blocks);
      const uint32_t kb_whole = kb_end - (half_last ? 1u : 0u);
      for (uint32_t kb = kb_begin + (carried && !adapter ? 1u : 0u); kb < kb_whole;) {
        const uint32_t left = kb_whole - kb;
        if constexpr (kSets == 2) {
          if (left >= kHalf && (skew || left < kUnrollStages)) {
            block(std::integral_constant<int, kHalf>{}, StageGroups{});
            kb += kHalf;
            skew = false;
            continue;
          }
        }
        if (left >= kUnrollStages) {
          block(std::integral_constant<int, kUnrollStages>{}, StageGroups{});
          kb += kUnrollStages;
        } else {
          block(std::integral_constant<int, 1>{}, StageGroups{});
          ++kb;
        }
      }
      if constexpr (kStageBlocks > 1) {
        if (half_last) block(std::integral_constant<int, 1>{}, BlockGroups{});
      }

      CAKE_TIMELINE_ONLY(timeline.k_loop_end());
      // (Programs of several passes are never split: config.h kMaxSplit.)
      if (kPasses == 1 && split > 1) {
        // The landing blocks' places are computed here, per tile: hoisted out of the
        // tile loop they would take registers for the whole K loop.
        int wg = cw;
        asm volatile("" : "+r"(wg));
        if (!leader) {
          // Once the leader's producer has reserved this rank's stages, write the
          // partial sums there; nothing to wait for after that. The leader's ring
          // entries per tile: its adapter slices, its K blocks, the landing stages.
          cutlass::arch::ClusterBarrier::wait(landing_free, landing_phase);
          landing_phase ^= 1;
          // (Not after the last tile: the leader no longer waits for it, and might
          // have left by the time it arrived.)
          if (lane == 0 && !scheduler.is_last()) cutlass::arch::ClusterBarrier::arrive(landing_taken, 0, 1);
          const uint32_t lead = Ring::lead_entries(split, units, lead_units);
          const uint32_t first = Ring::rank_stage(lead_stage + lead, rank);
          lead_stage = (lead_stage + lead + Ring::landing_stages(split)) % kStages;
          // (All the ranks of a landing complete on its first stage's barrier.)
          const uint32_t bar = map_shared_rank(cute::cast_smem_ptr_to_uint(&full[first]), 0);
#pragma unroll
          for (int i = 0; i < kAccRegs; i += 4) {
            const uint32_t at = ring_addr + Ring::landing(first, rank, wg * (kAccRegs / 4) + i / 4) + thread * 16;
            st_async_v4(map_shared_rank(at, 0), acc[i], acc[i + 1], acc[i + 2], acc[i + 3], bar);
          }
          continue;
        }
        // Leader: the landing stages come after this tile's adapter slices and K
        // blocks, rank after rank (config.h kMaxSplit keeps them within the ring);
        // add the others' sums in rank order, then release the stages.
        const uint32_t s0 = stage;
        for (uint32_t s = 0; s < Ring::landing_stages(split); ++s) {
          cutlass::arch::ClusterBarrier::wait(&full[stage], phase);
          if (++stage == kStages) stage = 0, phase ^= 1;
        }
        for (uint32_t r = 1; r < split; ++r) {
          const uint32_t first = Ring::rank_stage(s0, r);
#pragma unroll
          for (int i = 0; i < kAccRegs; i += 4)
            add_shared_v4(ring_addr + Ring::landing(first, r, wg * (kAccRegs / 4) + i / 4) + thread * 16, acc[i],
                          acc[i + 1], acc[i + 2], acc[i + 3]);
        }
        for (uint32_t s = 0; s < Ring::landing_stages(split); ++s) release((s0 + s) % kStages);
      }

      if (scheduler.is_last()) launch_dependents();

      // ------------------------------------------------------------ epilogue
      // Each output is acc + bias in fp32 (with the adapter acc = s * acc_lora +
      // alpha * acc_base; without, alpha * acc), rounded once to bf16, staged in
      // shared memory and written by a TMA store.
      // Thread layout of a 64 x N wgmma accumulator: element (row, col) with
      // row = 16*warp + lane/4 + 8*h and col = 8*j + 2*(lane%4) + e lives in
      // register 4*j + 2*h + e.
      // Carry (the one-set programs, not turned; split 1; not the last tile): the next
      // tile's first unit, the ring's next stages, is issued into part once this
      // tile's outputs are staged and retired once its store is issued, so that the
      // tensor cores work while all the consumer warpgroups finish the tile (they
      // reach the epilogue together). H200, r = 128, side by side, two runs each, best
      // per shape, us (a K block carried): M = 8192, N = 28672 1686.2 -> 1648.0;
      // 8192^3 898.8 -> 878.3; M = 2048, N = 6144 90.6 -> 87.6. In the turned programs
      // it measured slower: a carried K block 1.016 of the times without, the adapter
      // issued before the epilogue 1.011 at M = 512, N = 28672.
      constexpr bool kCarry = kSets == 1 && !Shape::kSwapAB && kPasses == 1;
      // The carried unit is a whole stage of one K block: a two-block program's odd
      // last stage (half_last) would otherwise run twice.
      static_assert(!kCarry || kStageBlocks == 1, "the carry takes one-block stages");
      const bool carry = kCarry && split == 1 && !scheduler.is_last();
      uint32_t carry_first = 0;
      auto carry_issue = [&] {
        if (adapter) {
          carry_first = issue_adapter();
          return;
        }
        cutlass::arch::ClusterBarrier::wait(&full[stage], phase);
        uint64_t dp, dq;
        stage_descs(dp, dq);
        issue(part[0], dp, dq, 0);
      };
      constexpr int kPassOutBytes = 64 * kWarpgroupQ * 2;  // a pass's bf16 outputs
      uint8_t* buf = epilogue + cw * (kPasses * kPassOutBytes);
      const uint32_t buf_addr = cute::cast_smem_ptr_to_uint(buf);

      if constexpr (!Shape::kSwapAB) {
        // The outputs in registers first, two bf16 per register (out2[2*j + h] holds
        // e = 0 in its low half): half of acc's registers, and part is free.
        if (!scaled_groups) {
#pragma unroll
          for (int q = 0; q < kPasses; ++q)
#pragma unroll
            for (int i = 0; i < kAccRegs; ++i) accs[q][i] = alpha * accs[q][i];
        }
#pragma unroll
        for (int q = 0; q < kPasses; ++q) fence_operands(accs[q]);
        if constexpr (kCarry) {
          // part's values are dead from here; redefined, so that the read-write
          // operand constraints of its next fill do not keep them alive through the
          // staging (in 152 registers acc, part and the outputs do not fit).
#pragma unroll
          for (int i = 0; i < kAccRegs; ++i) part[0][i] = 0.0f;
        }
        uint32_t out2[kAccRegs / 2];
        // Two branches, so that without a bias the packing is only that.
        auto pack = [&](auto bias_c, auto q_c) {
          float(&pacc)[kAccRegs] = accs[decltype(q_c)::value];
#pragma unroll
          for (int j = 0; j < kWarpgroupQ / 8; ++j) {
            // out row = P row, out column = Q column: this thread's two adjacent
            // columns of block j are the warpgroup's bias pair 4 * j + lane % 4.
            uint32_t b2 = 0;
            if constexpr (decltype(bias_c)::value) b2 = __shfl_sync(0xffffffffu, bias[j / 8], (4 * j) % 32 + lane % 4);
#pragma unroll
            for (int h = 0; h < 2; ++h) {
              float v[2] = {pacc[4 * j + 2 * h], pacc[4 * j + 2 * h + 1]};
              if constexpr (decltype(bias_c)::value) {
                v[0] += bf16_lo(b2);
                v[1] += bf16_hi(b2);
              }
              out2[2 * j + h] = pack_bf16x2(v[0], v[1]);
            }
          }
        };
        auto pack_pass = [&](auto q_c) {
          if (with_bias)
            pack(std::true_type{}, q_c);
          else
            pack(std::false_type{}, q_c);
        };
        pack_pass(std::integral_constant<int, 0>{});
        // Staging: the previous tile's TMA store must have read the buffer. (stmatrix,
        // four 8 x 8 blocks per instruction as in the turned programs, measured
        // slower here: 1.004-1.016 of the times on 128 x 128 tiles, e.g. M = 512,
        // N = 4096, K = 14336 1.016.) Further passes are packed once the one before
        // is staged (out2 holds one pass).
        if (thread == 0) cute::tma_store_wait<0>();
        named_barrier(1 + cw, 128);
        unroll<kPasses>([&](auto q_c) {
          constexpr int kQ = decltype(q_c)::value;
          if constexpr (kQ > 0) pack_pass(q_c);
          const uint32_t pass_addr = buf_addr + kQ * kPassOutBytes;
#pragma unroll
          for (int j = 0; j < kWarpgroupQ / 8; ++j) {
#pragma unroll
            for (int h = 0; h < 2; ++h) {
              const int row = 16 * warp + lane / 4 + 8 * h;  // 0..63 in P
              // Box j/8 holds columns [64*(j/8), +64): 64 rows of 128 bytes, swizzled;
              // a block of Q that is not whole boxes of 64 is one plain box instead.
              const uint32_t addr =
                  kPlainOut ? pass_addr + row * (kWarpgroupQ * 2) + (8 * j + 2 * (lane % 4)) * 2
                            : pass_addr + (j / 8) * (64 * kRowBytes) + row * kRowBytes + (((j % 8) ^ (row % 8)) * 16) +
                                  (lane % 4) * 4;
              st_shared_u32(addr, out2[2 * j + h]);
            }
          }
        });
        if constexpr (kCarry) {
          if (carry) carry_issue();
        }
      } else {
        // Turned: out row = Q column (token), out column = P row (weight row), staged
        // transposed, a row of 64 P columns per token: 128 swizzled bytes; narrow
        // tiles stage plain rows of their p_rows columns (the rows past them belong
        // to the next tile and are not staged). The accumulator's 8 x 8 blocks (8 P
        // rows by 8 tokens) are packed to bf16 and stored transposed by stmatrix,
        // 16 bytes of a token's row per lane, instead of one 2-byte store per
        // output. The previous tile's TMA store must have read the buffer.
        if (thread == 0) cute::tma_store_wait<0>();
        named_barrier(1 + cw, 128);
        const bool narrow = Shape::kNarrowTiles && params.narrow;
        const uint32_t out_pitch = narrow ? params.p_rows * 2 : kRowBytes;
        const uint32_t out_swizzle = narrow ? 0 : 7;
        const int out_rows = narrow ? static_cast<int>(params.p_rows) : 64;
        constexpr int kBlocksQ = kWarpgroupQ / 8;  // 8-token blocks, an even number
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          // This warp's P rows 16 * warp + 8h .. + 7: the 16-byte chunk `chunk` of
          // each token's staged row; past a narrow tile's rows (a multiple of 8),
          // none (warp-uniform).
          const int chunk = 2 * warp + h;
          if (8 * chunk >= out_rows) continue;
          // The bias of this thread's P row (loaded at the tile's start).
          const float bias_n = h == 0 ? bf16_lo(bias[0]) : bf16_hi(bias[0]);
          auto packed = [&](int j) {
            float v[2];
#pragma unroll
            for (int e = 0; e < 2; ++e) {
              v[e] = acc[4 * j + 2 * h + e];
              if (!scaled_groups) v[e] = alpha * v[e];
              v[e] += bias_n;
            }
            return pack_bf16x2(v[0], v[1]);
          };
          // The token row this lane addresses: row lane % 8 of block j + lane / 8
          // (the x2 form reads lanes 0..15 only).
          auto row_addr = [&](int j) {
            const uint32_t m = 8 * (j + lane / 8) + lane % 8;
            return buf_addr + m * out_pitch + ((chunk ^ (m % 8 & out_swizzle)) * 16);
          };
#pragma unroll
          for (int j = 0; j + 4 <= kBlocksQ; j += 4)
            stmatrix_x4_trans(row_addr(j), packed(j), packed(j + 1), packed(j + 2), packed(j + 3));
          if constexpr (kBlocksQ % 4 == 2) {
            constexpr int j = kBlocksQ - 2;
            stmatrix_x2_trans(row_addr(j), packed(j), packed(j + 1));
          }
        }
      }
      CAKE_TIMELINE_ONLY(timeline.stamp(Timeline::kStaged));
      cute::tma_store_fence();  // make the generic-proxy writes visible to TMA
      named_barrier(1 + cw, 128);
      if (thread == 0) {
        if constexpr (kPlainOut) {
          tma_store(&maps.out, buf, static_cast<int>(tq * kBlockQ + wg_q * kWarpgroupQ),
                    static_cast<int>(tp * p_step + wg_p * 64));
        } else if constexpr (!Shape::kSwapAB) {
#pragma unroll
          for (int q = 0; q < kPasses; ++q)
#pragma unroll
            for (int box = 0; box < kBlockQ / 64; ++box)
              tma_store(&maps.out, buf + q * kPassOutBytes + box * 64 * kRowBytes,
                        static_cast<int>(tq * kBlockQ + box * 64),
                        static_cast<int>(tp * p_step + (wg_p * kPasses + q) * 64));
        } else {
          tma_store(&maps.out, buf, static_cast<int>(tp * p_step + wg_p * 64),
                    static_cast<int>(tq * kBlockQ + wg_q * kWarpgroupQ));
        }
        cute::tma_store_arrive();
      }

      // The carried unit retired: acc starts from it as it would have at the start of
      // the next tile (the same operations in the same order).
      if constexpr (kCarry) {
        if (carry) {
          if (adapter) {
            take_adapter(carry_first);
          } else {
            cute::warpgroup_wait<0>();
            if constexpr (kGroups == 1) release(stage);
#pragma unroll
            for (int i = 0; i < kAccRegs; ++i) acc[i] = 0.0f;
            promote(part[0]);
            if constexpr (kGroups > 1) {
              uint64_t dp, dq;
              stage_descs(dp, dq);
              unroll<kGroups - 1>([&](auto g_c) {
                constexpr int kG = decltype(g_c)::value + 1;
                group(std::integral_constant<int, kG>{}, std::integral_constant<int, kG>{}, StageGroups{}, dp, dq);
              });
            }
            if (++stage == kStages) stage = 0, phase ^= 1;
          }
        }
      }
      CAKE_TIMELINE_ONLY(timeline.stamp(Timeline::kStoreIssued));
      carried = carry;
    }
    if (leader && thread == 0) cute::tma_store_wait<0>();
    CAKE_TIMELINE_ONLY(if (cw == 0 && thread == 0) Timeline::stores_read(timeline_cta));
    // Multicast: no CTA leaves while another may still arrive on its barriers.
    // The consumers hold it (exited threads do not count at the cluster barrier;
    // everything the other CTA's producer sends here, they have consumed).
    if (multicast > 1) cluster_sync();
    // The CTA's end is when it leaves the SM, after its stores' reads and the
    // pair's barrier (at M = 512, N = 28672 a median 1.6 us after its last tile).
    CAKE_TIMELINE_ONLY(if (cw == 0 && thread == 0) Timeline::end(timeline_cta));
  }
#endif
}

}  // namespace cake::sm90
