// The shared-memory bank probe: what each kind of traffic costs the banks that
// wgmma reads its operands from.
//
// docs/performance.md explains the wide programs' speed by one ceiling: an SM's
// shared-memory banks serve about 35.5 four-byte accesses per cycle, shared by
// wgmma's operand reads and TMA's writes. That leaves one question open for a
// design that would load the weights from L2 straight into registers (wgmma's
// register operand) instead of through shared memory: does a global load cost the
// banks nothing, its fill only, or its fill and its read-out? (Through shared
// memory the weights cost a TMA write and a wgmma read per byte.)
//
// One CTA per SM. Three warpgroups issue FP8 wgmma 64 x N x 32 back to back on
// operands that stay in shared memory (SS: both from shared memory, each warpgroup
// its own 64-row A and all three the same N-row B, as the turned programs lay them
// out; RS: A from registers). Four more warps meanwhile make one kind of traffic
// until the warpgroups are done: none, bulk copies from L2 into shared memory (what
// TMA does), 16-byte loads from L2 into registers (ld.global.cg; ld.global.nc with no
// L1 allocation), 16-byte loads that hit in L1 (ld.global.ca over 16 KiB: the
// read-out without the fill), or 16-byte loads from shared memory. Where wgmma is
// bound by the banks (SS at N = 32 needs 192 bytes of operand reads per cycle at the
// tensor cores' rate), each byte of traffic per cycle takes its cost in bank bytes
// out of wgmma's operand reads: the cost per byte is the drop in operand bytes read
// per cycle over the traffic's bytes per cycle.
//
//   cake_bank_probe            the table of every combination (a second or so)
//
// A measurement tool: it checks nothing and its results are not outputs.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda_check.h"
#include "sm90/primitives.cuh"

namespace {

using namespace cake::sm90;

enum class Operands : int { kSS, kRS };
enum class Traffic : int { kNone, kBulkCopy, kGlobalCg, kGlobalNc, kGlobalL1Hit, kShared };
constexpr int kTrafficKinds = 6;
constexpr const char* kTrafficNames[] = {"none", "bulk copy L2->smem", "ld.global.cg", "ld.global.nc",
                                         "ld.global.ca L1 hit", "ld.shared"};

constexpr int kMmaWarpgroups = 3;
constexpr int kTrafficWarps = 4;
constexpr int kThreads = kMmaWarpgroups * 128 + kTrafficWarps * 32;
constexpr int kATileBytes = 64 * 128;   // 64 rows of one 128-byte K block
constexpr int kBTileBytes = 128 * 128;  // up to 128 rows
constexpr int kOperandBytes = kMmaWarpgroups * kATileBytes + kBTileBytes;
constexpr int kTrafficBytes = 64 * 1024;  // the bulk copies' ring; the shared loads' source
constexpr int kRingSlots = 16;
constexpr int kSlotBytes = kTrafficBytes / kRingSlots;
constexpr int kWindowBytes = 128 * 1024;  // each CTA's part of the global source: L2-resident
constexpr int kL1WindowBytes = 16 * 1024;  // the part the L1-hit loads cycle over: L1-resident
constexpr int kLoadsInFlight = 16;        // 16-byte loads per thread before the first use
constexpr int kSmemBytes = 1024 + kOperandBytes + kTrafficBytes + 1024;

struct Result {
  unsigned long long mma_cycles[kMmaWarpgroups];
  unsigned long long traffic_bytes, traffic_cycles;
  unsigned sink;
};

// The 16 bytes at element idx of a global window (or, for kShared, of the shared ring
// at ring_addr) by the path the traffic kind names.
#define CAKE_PROBE_LD16(op, addr_constraint, addr)                                    \
  asm volatile(op " {%0, %1, %2, %3}, [%4];"                                          \
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : addr_constraint(addr))
template <Traffic kKind>
__device__ __forceinline__ uint4 load16(const uint4* window, uint32_t ring_addr, uint32_t idx) {
  uint4 v;
  if constexpr (kKind == Traffic::kGlobalCg) CAKE_PROBE_LD16("ld.global.cg.v4.u32", "l", window + idx);
  if constexpr (kKind == Traffic::kGlobalNc)
    CAKE_PROBE_LD16("ld.global.nc.L1::no_allocate.v4.u32", "l", window + idx);
  if constexpr (kKind == Traffic::kGlobalL1Hit) CAKE_PROBE_LD16("ld.global.ca.v4.u32", "l", window + idx);
  if constexpr (kKind == Traffic::kShared) CAKE_PROBE_LD16("ld.shared.v4.u32", "r", ring_addr + idx * 16);
  return v;
}
#undef CAKE_PROBE_LD16

// Stops when the flag says all three warpgroups are done, checking it every pass.
__device__ __forceinline__ bool mma_running(const volatile int* done) { return *done < kMmaWarpgroups; }

// One traffic warp's loads of one kind, kLoadsInFlight per thread before the first
// use, cycling over its window, until the warpgroups are done; returns its bytes.
template <Traffic kKind>
__device__ __forceinline__ unsigned long long load_traffic(const uint4* window, uint32_t ring_addr, int tw,
                                                           int lane, const volatile int* done, uint32_t& x) {
  constexpr uint32_t kMask = (kKind == Traffic::kShared      ? kTrafficBytes
                              : kKind == Traffic::kGlobalL1Hit ? kL1WindowBytes
                                                               : kWindowBytes) / 16 - 1;
  unsigned long long bytes = 0;
  for (uint32_t i = 0; mma_running(done); ++i) {
    uint4 v[kLoadsInFlight];
#pragma unroll
    for (int u = 0; u < kLoadsInFlight; ++u)
      v[u] = load16<kKind>(window, ring_addr, (((i * kLoadsInFlight + u) * kTrafficWarps + tw) * 32 + lane) & kMask);
#pragma unroll
    for (int u = 0; u < kLoadsInFlight; ++u) x ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    bytes += kLoadsInFlight * 16;
  }
  return bytes;
}

// FP8 wgmma with A from registers (4 registers of 4 E4M3 values per thread per 32-deep step).
template <int N> struct RsOp;
template <> struct RsOp<32> { using Op = gmma::MMA_64x32x32_F32E4M3E4M3_RS_TN<>; };
template <> struct RsOp<64> { using Op = gmma::MMA_64x64x32_F32E4M3E4M3_RS_TN<>; };
template <> struct RsOp<128> { using Op = gmma::MMA_64x128x32_F32E4M3E4M3_RS_TN<>; };

template <typename Op, int R, size_t... I>
__device__ __forceinline__ void mma_rs_call(const uint32_t (&a)[4], uint64_t db, float (&acc)[R],
                                            std::index_sequence<I...>) {
  Op::fma(a[0], a[1], a[2], a[3], db, acc[I]..., gmma::ScaleOut::One);
}

// E4M3 bytes of magnitude below 2 (no NaN): what the operands hold does not change
// the speed, only that they are finite.
__device__ __forceinline__ uint32_t pattern(uint32_t i) { return (i * 0x9E3779B9u >> 8) & 0x3F3F3F3Fu; }

template <int N, Operands kOps>
__global__ void __launch_bounds__(kThreads, 1)
    bank_probe(const uint4* __restrict__ src, int iters, Traffic traffic, Result* out) {
  extern __shared__ uint8_t raw[];
  uint8_t* base = raw + ((1024 - (cute::cast_smem_ptr_to_uint(raw) & 1023)) & 1023);
  uint8_t* a_tiles = base;
  uint8_t* b_tile = base + kMmaWarpgroups * kATileBytes;
  uint8_t* ring = base + kOperandBytes;
  uint64_t* bars = reinterpret_cast<uint64_t*>(ring + kTrafficBytes);
  volatile int* done = reinterpret_cast<volatile int*>(bars + kRingSlots);
  unsigned long long* traffic_bytes = reinterpret_cast<unsigned long long*>(bars + kRingSlots + 1);
  unsigned long long* traffic_cycles = traffic_bytes + 1;

  for (int i = threadIdx.x; i < (kOperandBytes + kTrafficBytes) / 4; i += kThreads)
    reinterpret_cast<uint32_t*>(base)[i] = pattern(i);
  // wgmma and the bulk copies reach these bytes through the async proxy.
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  if (threadIdx.x == 0) {
    for (int s = 0; s < kRingSlots; ++s) cutlass::arch::ClusterBarrier::init(&bars[s], 1);
    *done = 0;
    *traffic_bytes = 0;
    *traffic_cycles = 0;
    cutlass::arch::fence_barrier_init();
  }
  __syncthreads();

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp < kMmaWarpgroups * 4) {
    const int wg = warp / 4;
    const uint64_t da = smem_desc(a_tiles + wg * kATileBytes), db = smem_desc(b_tile);
    float acc[N / 2];
#pragma unroll
    for (int i = 0; i < N / 2; ++i) acc[i] = 0.f;
    uint32_t a_regs[4][4];
#pragma unroll
    for (int k = 0; k < 4; ++k)
#pragma unroll
      for (int j = 0; j < 4; ++j) a_regs[k][j] = opaque(pattern(threadIdx.x * 16 + k * 4 + j));
    const long long t0 = clock64();
    for (int it = 0; it < iters; ++it) {
      fence_operands(acc);
      cute::warpgroup_arrive();
      unroll<4>([&](auto k) {
        if constexpr (kOps == Operands::kSS)
          mma<typename MmaOps<N>::Fp8>(desc_advance(da, k * 32), desc_advance(db, k * 32), acc, true);
        else
          mma_rs_call<typename RsOp<N>::Op>(a_regs[k], desc_advance(db, k * 32), acc,
                                            std::make_index_sequence<N / 2>{});
      });
      cute::warpgroup_commit_batch();
      cute::warpgroup_wait<1>();
      fence_operands(acc);
    }
    cute::warpgroup_wait<0>();
    fence_operands(acc);
    const long long t1 = clock64();
    if (threadIdx.x % 128 == 0) {
      out[blockIdx.x].mma_cycles[wg] = t1 - t0;
      atomicAdd(const_cast<int*>(done), 1);
    }
    float s = 0.f;
#pragma unroll
    for (int i = 0; i < N / 2; ++i) s += acc[i];
    if (s == 1234.5f) out[blockIdx.x].sink = 1;  // keeps the products live
  } else {
    const int tw = warp - kMmaWarpgroups * 4;
    const uint4* window = src + static_cast<size_t>(blockIdx.x) * (kWindowBytes / 16);
    unsigned long long bytes = 0;
    uint32_t x = 0;
    const long long t0 = clock64();
    if (traffic == Traffic::kBulkCopy) {
      if (tw == 0 && lane == 0) {
        uint32_t issued = 0;
        while (mma_running(done)) {
          const uint32_t s = issued % kRingSlots, use = issued / kRingSlots;
          if (use > 0) cutlass::arch::ClusterBarrier::wait(&bars[s], (use - 1) & 1);
          cutlass::arch::ClusterTransactionBarrier::arrive_and_expect_tx(&bars[s], kSlotBytes);
          cute::SM90_BULK_COPY_G2S::copy(
              reinterpret_cast<const uint8_t*>(window) + (issued * kSlotBytes) % kWindowBytes,
              &bars[s], ring + s * kSlotBytes, kSlotBytes);
          ++issued;
        }
        for (uint32_t j = issued > kRingSlots ? issued - kRingSlots : 0; j < issued; ++j)
          cutlass::arch::ClusterBarrier::wait(&bars[j % kRingSlots], (j / kRingSlots) & 1);
        bytes = static_cast<unsigned long long>(issued) * kSlotBytes;
      }
    } else {
      const uint32_t ring_addr = cute::cast_smem_ptr_to_uint(ring);
      switch (traffic) {
        case Traffic::kGlobalCg: bytes = load_traffic<Traffic::kGlobalCg>(window, ring_addr, tw, lane, done, x); break;
        case Traffic::kGlobalNc: bytes = load_traffic<Traffic::kGlobalNc>(window, ring_addr, tw, lane, done, x); break;
        case Traffic::kGlobalL1Hit:
          bytes = load_traffic<Traffic::kGlobalL1Hit>(window, ring_addr, tw, lane, done, x);
          break;
        case Traffic::kShared: bytes = load_traffic<Traffic::kShared>(window, ring_addr, tw, lane, done, x); break;
        default: break;
      }
    }
    const long long t1 = clock64();
    if (bytes) {
      atomicAdd(traffic_bytes, bytes);
      atomicMax(traffic_cycles, static_cast<unsigned long long>(t1 - t0));
    }
    if (x == 0x12345678u) out[blockIdx.x].sink = x;  // keeps the loads live
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    out[blockIdx.x].traffic_bytes = *traffic_bytes;
    out[blockIdx.x].traffic_cycles = *traffic_cycles;
  }
}

struct Row {
  double tensor_fraction, operand_bytes_per_clk, traffic_bytes_per_clk;
};

template <int N, Operands kOps>
Row run(const uint4* src, Traffic traffic, int sms, Result* d_out) {
  auto kernel = bank_probe<N, kOps>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  const int iters = (1 << 20) / N;  // about 1-2 ms a launch
  std::vector<Row> rows;
  std::vector<Result> h(sms);
  for (int rep = 0; rep < 4; ++rep) {  // the first is a warm-up
    CK(cudaMemset(d_out, 0, sizeof(Result) * sms));
    kernel<<<sms, kThreads, kSmemBytes>>>(src, iters, traffic, d_out);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    if (rep == 0) continue;
    CK(cudaMemcpy(h.data(), d_out, sizeof(Result) * sms, cudaMemcpyDeviceToHost));
    double mma_cycles = 0, traffic_rate = 0;
    for (const Result& r : h) {
      for (unsigned long long c : r.mma_cycles) mma_cycles += static_cast<double>(c);
      if (r.traffic_cycles) traffic_rate += static_cast<double>(r.traffic_bytes) / r.traffic_cycles;
    }
    mma_cycles /= sms * kMmaWarpgroups;
    const double wgmmas = 4.0 * iters * kMmaWarpgroups;
    const double flops = wgmmas * 2.0 * 64 * N * 32;
    const double operand_bytes = wgmmas * ((kOps == Operands::kSS ? 64 * 32 : 0) + N * 32);
    rows.push_back({flops / mma_cycles / 8192.0, operand_bytes / mma_cycles, traffic_rate / sms});
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.tensor_fraction < b.tensor_fraction; });
  return rows[rows.size() / 2];  // the median of three
}

template <int N, Operands kOps>
void table(const uint4* src, int sms, Result* d_out) {
  Row none{};
  for (int t = 0; t < kTrafficKinds; ++t) {
    const auto traffic = static_cast<Traffic>(t);
    const Row r = run<N, kOps>(src, traffic, sms, d_out);
    if (traffic == Traffic::kNone) none = r;
    const double drop = none.operand_bytes_per_clk - r.operand_bytes_per_clk;
    std::printf("%-3s %4d  %-20s %8.3f %10.1f %10.1f %10.1f",
                kOps == Operands::kSS ? "SS" : "RS", N, kTrafficNames[t], r.tensor_fraction,
                r.operand_bytes_per_clk, r.traffic_bytes_per_clk, drop);
    if (r.traffic_bytes_per_clk > 0) std::printf(" %10.2f", drop / r.traffic_bytes_per_clk);
    std::printf("\n");
  }
}

}  // namespace

int main() {
  int dev = 0, sms = 0, major = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  if (major != 9) {
    std::fprintf(stderr, "cake_bank_probe: needs an SM90 GPU\n");
    return 2;
  }
  cudaDeviceProp prop{};
  CK(cudaGetDeviceProperties(&prop, dev));
  uint4* src = nullptr;
  Result* d_out = nullptr;
  CK(cudaMalloc(&src, static_cast<size_t>(sms) * kWindowBytes));
  CK(cudaMemset(src, 0x31, static_cast<size_t>(sms) * kWindowBytes));
  CK(cudaMalloc(&d_out, sizeof(Result) * sms));
  std::printf("%s, %d SMs; one CTA per SM: %d wgmma warpgroups + %d traffic warps; rates per SM-cycle\n",
              prop.name, sms, kMmaWarpgroups, kTrafficWarps);
  std::printf("ops    N  traffic              tensor    operand    traffic   op. drop  drop/byte\n");
  std::printf("                                 rate    B/clk      B/clk      B/clk\n");
  table<32, Operands::kSS>(src, sms, d_out);
  table<64, Operands::kSS>(src, sms, d_out);
  table<128, Operands::kSS>(src, sms, d_out);
  table<32, Operands::kRS>(src, sms, d_out);
  table<64, Operands::kRS>(src, sms, d_out);
  table<128, Operands::kRS>(src, sms, d_out);
  CK(cudaFree(src));
  CK(cudaFree(d_out));
  return 0;
}
