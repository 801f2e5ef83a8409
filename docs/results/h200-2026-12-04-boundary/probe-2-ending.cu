// PDL overlap probe 2: what in a CTA's ending delays the SM's hand-over to the dependent grid?
// A: 132 CTAs x 384 threads, ~210 KB smem, triggers at start; stamps "exit" before its ending actions.
// B: 120 CTAs, launched with PDL, waits at its end. Ending actions of A (bitmask):
//   1: a 48 KiB bulk copy shared -> global, then wait_group.read 0 (as a TMA store of the output tile)
//   2: a cluster barrier (cluster of 2)
//   4: setmaxnreg: warpgroup 0 deallocates to 40, the others allocate 232
//   8: wait_group 0 (writes complete) instead of .read
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
__device__ __forceinline__ unsigned long long gns() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__global__ void __launch_bounds__(384, 1) primary(unsigned long long* rec, char* out, int spin_ns, int jitter_ns, int ending) {
  extern __shared__ __align__(128) char smem[];
  unsigned long long t0 = gns();
  asm volatile("griddepcontrol.launch_dependents;");
  const int wg = threadIdx.x / 128;
  if (ending & 4) {
    if (wg == 0) asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    else asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  }
  unsigned long long until = t0 + spin_ns + (unsigned long long)((blockIdx.x * 7919u) % 132u) * jitter_ns / 132u;
  for (int i = threadIdx.x; i < 49152 / 4; i += blockDim.x) reinterpret_cast<int*>(smem)[i] = i + blockIdx.x;
  while (gns() < until) {}
  __syncthreads();
  unsigned long long t1 = gns();
  if (threadIdx.x == 0) {
    if (ending & 1) {
      asm volatile("fence.proxy.async.shared::cta;");
      unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
      char* dst = out + static_cast<size_t>(blockIdx.x) * 49152;
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" :: "l"(dst), "r"(s), "r"(49152) : "memory");
      asm volatile("cp.async.bulk.commit_group;");
      if (ending & 8) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
      else asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
    rec[3 * blockIdx.x] = t0; rec[3 * blockIdx.x + 1] = t1;
  }
  if (ending & 2) { asm volatile("barrier.cluster.arrive.aligned; barrier.cluster.wait.aligned;" ::: "memory"); }
  if (threadIdx.x == 0) rec[3 * blockIdx.x + 2] = gns();
}
__global__ void __launch_bounds__(384, 1) secondary(unsigned long long* rec, int spin_ns) {
  extern __shared__ char smem[];
  unsigned long long t0 = gns();
  if (threadIdx.x == 0) smem[0] = 1;
  while (gns() < t0 + spin_ns) {}
  asm volatile("griddepcontrol.wait;" ::: "memory");
  if (threadIdx.x == 0) { rec[2 * blockIdx.x] = t0; rec[2 * blockIdx.x + 1] = gns(); }
}
int main() {
  unsigned long long *ra, *rb; char* out;
  cudaMalloc(&ra, 4096 * 8); cudaMalloc(&rb, 4096 * 8); cudaMalloc(&out, 132 * 49152);
  int smem = 215040;
  cudaFuncSetAttribute(primary, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  cudaFuncSetAttribute(secondary, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  cudaStream_t s; cudaStreamCreate(&s);
  for (int ca : {1, 2}) for (int ending : {0, 1, 2, 3, 4, 7, 9, 15}) {
    if ((ending & 2) && ca == 1) continue;
    for (int rep = 0; rep < 2; ++rep) {
      cudaLaunchAttribute aa[2]; aa[0].id = cudaLaunchAttributeClusterDimension; aa[0].val.clusterDim = {(unsigned)ca, 1, 1};
      aa[1].id = cudaLaunchAttributeProgrammaticStreamSerialization; aa[1].val.programmaticStreamSerializationAllowed = 1;
      cudaLaunchConfig_t c{}; c.gridDim = 132; c.blockDim = 384; c.dynamicSmemBytes = smem; c.stream = s; c.attrs = aa; c.numAttrs = 2;
      cudaLaunchKernelEx(&c, primary, ra, out, 20000, 3000, ending);
      cudaLaunchAttribute ab[2]; ab[0].id = cudaLaunchAttributeClusterDimension; ab[0].val.clusterDim = {1, 1, 1}; ab[1] = aa[1];
      cudaLaunchConfig_t d{}; d.gridDim = 120; d.blockDim = 384; d.dynamicSmemBytes = smem; d.stream = s; d.attrs = ab; d.numAttrs = 2;
      cudaLaunchKernelEx(&d, secondary, rb, 5000);
      cudaError_t e = cudaStreamSynchronize(s);
      if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
      std::vector<unsigned long long> a(396), b(240);
      cudaMemcpy(a.data(), ra, 396 * 8, cudaMemcpyDeviceToHost); cudaMemcpy(b.data(), rb, 240 * 8, cudaMemcpyDeviceToHost);
      unsigned long long t0 = ~0ull, s_lo = ~0ull, s_hi = 0, e_lo = ~0ull, e_hi = 0, b_lo = ~0ull, b_hi = 0, bx = 0;
      for (int i = 0; i < 132; ++i) {
        t0 = std::min(t0, a[3 * i]);
        s_lo = std::min(s_lo, a[3 * i + 1]); s_hi = std::max(s_hi, a[3 * i + 1]);
        e_lo = std::min(e_lo, a[3 * i + 2]); e_hi = std::max(e_hi, a[3 * i + 2]);
      }
      int early = 0;
      for (int i = 0; i < 120; ++i) { b_lo = std::min(b_lo, b[2 * i]); b_hi = std::max(b_hi, b[2 * i]); bx = std::max(bx, b[2 * i + 1]); if (b[2 * i] < s_hi) ++early; }
      printf("A cluster %d ending %2d | A stamp %.2f..%.2f  A last %.2f..%.2f  B entry %.2f..%.2f (%3d before A's last stamp)  B exit %.2f us\n",
             ca, ending, (s_lo - t0) / 1e3, (s_hi - t0) / 1e3, (e_lo - t0) / 1e3, (e_hi - t0) / 1e3, (b_lo - t0) / 1e3, (b_hi - t0) / 1e3, early, (bx - t0) / 1e3);
    }
  }
  return 0;
}
