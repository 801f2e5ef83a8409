// Hopper building blocks used by the programs: shared-memory matrix descriptors,
// the wgmma instructions (through CuTe's atoms), mbarriers, TMA, register
// reallocation, programmatic dependent launch. Thin names over CUTLASS/CuTe so
// that program.cuh reads as the algorithm.
#pragma once

#include <cuda.h>
#include <cuda_bf16.h>

#include <cstdint>
#include <type_traits>
#include <utility>

#include <cute/arch/copy_sm90_desc.hpp>
#include <cute/arch/copy_sm90_tma.hpp>
#include <cute/arch/mma_sm90_desc.hpp>
#include <cute/arch/mma_sm90_gmma.hpp>
#include <cute/arch/mma_sm90_gmma_ext.hpp>  // the n = 80 / 112 / 144 atoms
#include <cutlass/arch/barrier.h>
#include <cutlass/arch/reg_reconfig.h>

#include "sm90/run_program.h"

namespace cake::sm90 {

namespace gmma = cute::SM90::GMMA;
using Barrier = cutlass::arch::ClusterTransactionBarrier;

// ---------------------------------------------------------------------------------
// Shared-memory operand tiles. Every operand tile is K-major with 128-byte rows,
// written by TMA with the 128-byte swizzle: 8-row groups are 1024 bytes apart and
// the 16-byte chunks of row r are permuted by r % 8. Tiles start 1024-byte aligned.

__device__ __forceinline__ uint64_t smem_desc(const void* tile) {
  cute::GmmaDescriptor desc;
  desc.bitfield.start_address_ = static_cast<uint16_t>(cute::cast_smem_ptr_to_uint(tile) >> 4);
  desc.bitfield.leading_byte_offset_ = 1;    // unused with the 128-byte swizzle
  desc.bitfield.stride_byte_offset_ = 1024 >> 4;
  desc.bitfield.base_offset_ = 0;
  desc.bitfield.layout_type_ = 1;            // SWIZZLE_128B
  return desc.desc_;
}

// Advancing along K inside the 128-byte row: the descriptor's start address is in
// 16-byte units.
__device__ __forceinline__ uint64_t desc_advance(uint64_t desc, int bytes) {
  return desc + static_cast<uint64_t>(bytes >> 4);
}

// ---------------------------------------------------------------------------------
// wgmma: one warpgroup computes a 64 x N block, both operands from shared memory.
// FP8 instructions are 32 deep (32 bytes of each row), BF16 ones 16 deep (also
// 32 bytes), so one 128-byte stage is 4 instructions of either kind.

// The FP8 and BF16 atoms of each width a warpgroup's Q slice takes; CuTe names
// them by shape, so one specialisation per width.
template <int N> struct MmaOps;
#define CAKE_SM90_MMA_OPS(N)                                                             \
  template <> struct MmaOps<N> {                                                         \
    using Fp8 = gmma::MMA_64x##N##x32_F32E4M3E4M3_SS_TN<>;                                \
    using Bf16 = gmma::MMA_64x##N##x16_F32BF16BF16_SS<gmma::Major::K, gmma::Major::K>;    \
  };
CAKE_SM90_MMA_OPS(16)
CAKE_SM90_MMA_OPS(32)
CAKE_SM90_MMA_OPS(48)
CAKE_SM90_MMA_OPS(64)
CAKE_SM90_MMA_OPS(80)
CAKE_SM90_MMA_OPS(96)
CAKE_SM90_MMA_OPS(112)
CAKE_SM90_MMA_OPS(128)
CAKE_SM90_MMA_OPS(144)
CAKE_SM90_MMA_OPS(160)
#undef CAKE_SM90_MMA_OPS

template <typename Op, int R, size_t... I>
__device__ __forceinline__ void mma_call(uint64_t da, uint64_t db, float (&acc)[R], bool accumulate,
                                         std::index_sequence<I...>) {
  Op::fma(da, db, acc[I]..., accumulate ? gmma::ScaleOut::One : gmma::ScaleOut::Zero);
}

// acc (+)= P[64 x 32B] * Q[N x 32B]^T, for the 32-byte K slice the descriptors name.
template <typename Op, int R>
__device__ __forceinline__ void mma(uint64_t da, uint64_t db, float (&acc)[R], bool accumulate) {
  mma_call<Op>(da, db, acc, accumulate, std::make_index_sequence<R>{});
}

// f(integral_constant<int, 0>), ..., f(integral_constant<int, N - 1>): straight-line
// code whose index is a compile-time constant in every call.
template <typename F, int... I>
__device__ __forceinline__ void unroll_calls(F&& f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, I>{}), ...);
}
template <int N, typename F>
__device__ __forceinline__ void unroll(F&& f) {
  unroll_calls(f, std::make_integer_sequence<int, N>{});
}

template <int R>
__device__ __forceinline__ void fence_operands(float (&acc)[R]) {
#pragma unroll
  for (int i = 0; i < R; ++i) cute::warpgroup_fence_operand(acc[i]);
}

// ---------------------------------------------------------------------------------
// TMA

__device__ __forceinline__ void tma_load(const CUtensorMap* map, Barrier* bar, void* smem, int c0,
                                         int c1, uint64_t cache_hint) {
  cute::SM90_TMA_LOAD_2D::copy(map, reinterpret_cast<uint64_t*>(bar), cache_hint, smem, c0, c1);
}

// The same box into the same shared-memory offset of every CTA in `mask` (cluster
// ranks), completing its bytes on each one's barrier at `bar`'s offset.
__device__ __forceinline__ void tma_load_multicast(const CUtensorMap* map, Barrier* bar, uint16_t mask, void* smem,
                                                   int c0, int c1, uint64_t cache_hint) {
  cute::SM90_TMA_LOAD_MULTICAST_2D::copy(map, reinterpret_cast<uint64_t*>(bar), mask, cache_hint, smem, c0, c1);
}

__device__ __forceinline__ void tma_store(const CUtensorMap* map, const void* smem, int c0, int c1) {
  cute::SM90_TMA_STORE_2D::copy(map, smem, c0, c1);
}

static_assert(kEvictNormal == static_cast<uint64_t>(cute::TMA::CacheHintSm90::EVICT_NORMAL) &&
                  kEvictFirst == static_cast<uint64_t>(cute::TMA::CacheHintSm90::EVICT_FIRST),
              "run_program.h's L2 hints are CuTe's");

// ---------------------------------------------------------------------------------
// Programmatic dependent launch. Before grid_dependency_wait() nothing an earlier
// kernel may write is read; launch_dependents() lets the next kernel start its
// prologue (it still waits for this grid to finish before reading our output).

__device__ __forceinline__ void grid_dependency_wait() {
  asm volatile("griddepcontrol.wait;" ::: "memory");
}
__device__ __forceinline__ void launch_dependents() {
  asm volatile("griddepcontrol.launch_dependents;" :::);
}

// `x`, which the compiler must take as computed here: what derives from it is not
// hoisted above this point. Volatile asm statements keep their order, so its
// computation also stays before what follows (a wait, say).
__device__ __forceinline__ uint32_t opaque(uint32_t x) {
  asm volatile("" : "+r"(x));
  return x;
}

// Named barrier over the `threads` threads of one or more warpgroups (id 0 is
// __syncthreads').
__device__ __forceinline__ void named_barrier(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

// ---------------------------------------------------------------------------------
// Clusters. Split-K: the CTAs of a cluster share each of their tiles; the others
// write their partial sums into rank 0's shared memory (st.async, completing on
// its mbarriers). Multicast: each CTA's TMA loads fill all of them.

__device__ __forceinline__ uint32_t cluster_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

// The cluster barrier, split in its two halves (every thread of every CTA of the
// cluster arrives once per phase). Used once, so that every CTA's mbarriers are
// initialised before another CTA arrives on them: the initialisations are released
// by fence.mbarrier_init, so the arrival itself is relaxed.
__device__ __forceinline__ void cluster_arrive_relaxed() {
  asm volatile("barrier.cluster.arrive.relaxed;" ::: "memory");
}
__device__ __forceinline__ void cluster_wait() {
  asm volatile("barrier.cluster.wait.acquire;" ::: "memory");
}
// The whole cluster barrier, ordering this thread's earlier operations on other
// CTAs' shared memory (their mbarriers) before any CTA passes it.
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;" ::: "memory");
}

// Arrive on the mbarrier at `bar`'s offset in CTA `rank` of the cluster, where
// `pred` holds (predicated, no branch).
__device__ __forceinline__ void arrive_remote_if(const uint64_t* bar, uint32_t rank, bool pred) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      ".reg .b32 remote;\n"
      "setp.ne.b32 p, %2, 0;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "@p mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
      "}\n" ::"r"(cute::cast_smem_ptr_to_uint(bar)),
      "r"(rank), "r"(static_cast<uint32_t>(pred))
      : "memory");
}

// The address of the same shared-memory location in CTA `rank` of the cluster.
__device__ __forceinline__ uint32_t map_shared_rank(uint32_t addr, uint32_t rank) {
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(rank));
  return r;
}

// Asynchronous store of 16 bytes to distributed shared memory (`addr` in another
// CTA of the cluster) that completes its bytes on the mbarrier `bar` of that CTA.
__device__ __forceinline__ void st_async_v4(uint32_t addr, float a, float b, float c, float d, uint32_t bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.f32 [%0], {%1, %2, %3, %4}, [%5];" ::"r"(
                   addr),
               "f"(a), "f"(b), "f"(c), "f"(d), "r"(bar)
               : "memory");
}

// a..d += the four floats at `addr` (shared memory); one block, so that the loads
// are not gathered ahead of the additions into registers the caller lacks.
__device__ __forceinline__ void add_shared_v4(uint32_t addr, float& a, float& b, float& c, float& d) {
  asm volatile(
      "{\n"
      ".reg .f32 t<4>;\n"
      "ld.shared.v4.f32 {t0, t1, t2, t3}, [%4];\n"
      "add.f32 %0, %0, t0;\n"
      "add.f32 %1, %1, t1;\n"
      "add.f32 %2, %2, t2;\n"
      "add.f32 %3, %3, t3;\n"
      "}\n"
      : "+f"(a), "+f"(b), "+f"(c), "+f"(d)
      : "r"(addr)
      : "memory");
}

// A 16-bit read-only global load (bias entries: 2-byte aligned), as a volatile
// statement: issued where it stands, not sunk towards its first use, so that a
// load at a tile's start has the whole K loop to land.
__device__ __forceinline__ uint32_t ld_global_nc_u16(const void* p) {
  unsigned short v;
  asm volatile("ld.global.nc.u16 %0, [%1];" : "=h"(v) : "l"(p));
  return v;
}

// The two bf16 halves of a register as fp32 (exact).
__device__ __forceinline__ float bf16_lo(uint32_t x) { return __uint_as_float(x << 16); }
__device__ __forceinline__ float bf16_hi(uint32_t x) { return __uint_as_float(x & 0xffff0000u); }

__device__ __forceinline__ uint32_t pack_bf16x2(float lo, float hi) {
  __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<uint32_t*>(&v);
}

__device__ __forceinline__ void st_shared_u32(uint32_t addr, uint32_t v) {
  asm volatile("st.shared.u32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}
// Four 8 x 8 blocks of bf16 in mma fragments (thread t holds row t / 4, columns
// 2 * (t % 4) and + 1 of each, one register per block), stored transposed: stored
// row j of block i is the block's column j, 16 bytes at the address that lane
// 8 * i + j gives. Four blocks, or two (lanes 0..15 give the addresses).
__device__ __forceinline__ void stmatrix_x4_trans(uint32_t addr, uint32_t r0, uint32_t r1, uint32_t r2, uint32_t r3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(r0),
               "r"(r1), "r"(r2), "r"(r3)
               : "memory");
}
__device__ __forceinline__ void stmatrix_x2_trans(uint32_t addr, uint32_t r0, uint32_t r1) {
  asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" ::"r"(addr), "r"(r0), "r"(r1)
               : "memory");
}

}  // namespace cake::sm90
