// PDL overlap probe: does a dependent grid's CTA start on an SM freed by the primary's early-exiting CTA?
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
__device__ unsigned long long gns() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__global__ void primary(unsigned long long* rec, int spin_ns, int jitter_ns, int trigger) {
  extern __shared__ char smem[];
  unsigned long long t0 = gns();
  if (trigger == 0) asm volatile("griddepcontrol.launch_dependents;");
  unsigned long long until = t0 + spin_ns + (unsigned long long)((blockIdx.x * 7919u) % 132u) * jitter_ns / 132u;
  if (threadIdx.x == 0) smem[0] = 1;
  while (gns() < until) {}
  if (trigger == 1) asm volatile("griddepcontrol.launch_dependents;");
  if (threadIdx.x == 0) { rec[2 * blockIdx.x] = t0; rec[2 * blockIdx.x + 1] = gns(); }
}
__global__ void secondary(unsigned long long* rec, int spin_ns, int wait_at) {
  extern __shared__ char smem[];
  if (wait_at == 0) asm volatile("griddepcontrol.wait;" ::: "memory");
  unsigned long long t0 = gns();
  if (threadIdx.x == 0) smem[0] = 1;
  while (gns() < t0 + spin_ns) {}
  if (wait_at == 1) asm volatile("griddepcontrol.wait;" ::: "memory");
  if (threadIdx.x == 0) { rec[2 * blockIdx.x] = t0; rec[2 * blockIdx.x + 1] = gns(); }
}
int main() {
  unsigned long long *ra, *rb; cudaMalloc(&ra, 4096 * 8); cudaMalloc(&rb, 4096 * 8);
  int smem = 200 * 1024;
  cudaFuncSetAttribute(primary, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  cudaFuncSetAttribute(secondary, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  cudaFuncSetAttribute(primary, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  cudaFuncSetAttribute(secondary, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  cudaStream_t s; cudaStreamCreate(&s);
  int threads = 384;
  for (int ca : {1, 2}) for (int cb : {1, 2}) for (int trig : {0, 1}) for (int wait_at : {0, 1}) {
    for (int rep = 0; rep < 3; ++rep) {
      cudaLaunchAttribute aa[2]; aa[0].id = cudaLaunchAttributeClusterDimension; aa[0].val.clusterDim = {(unsigned)ca, 1, 1};
      aa[1].id = cudaLaunchAttributeProgrammaticStreamSerialization; aa[1].val.programmaticStreamSerializationAllowed = 1;
      cudaLaunchConfig_t c{}; c.gridDim = 132; c.blockDim = threads; c.dynamicSmemBytes = smem; c.stream = s; c.attrs = aa; c.numAttrs = 2;
      cudaLaunchKernelEx(&c, primary, ra, 20000, 3000, trig);
      cudaLaunchAttribute ab[2]; ab[0].id = cudaLaunchAttributeClusterDimension; ab[0].val.clusterDim = {(unsigned)cb, 1, 1};
      ab[1] = aa[1];
      cudaLaunchConfig_t d{}; d.gridDim = 120; d.blockDim = threads; d.dynamicSmemBytes = smem; d.stream = s; d.attrs = ab; d.numAttrs = 2;
      cudaLaunchKernelEx(&d, secondary, rb, 5000, wait_at);
      cudaError_t e = cudaStreamSynchronize(s);
      if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
      std::vector<unsigned long long> a(264), b(240);
      cudaMemcpy(a.data(), ra, 264 * 8, cudaMemcpyDeviceToHost); cudaMemcpy(b.data(), rb, 240 * 8, cudaMemcpyDeviceToHost);
      unsigned long long t0 = ~0ull, aexit_min = ~0ull, aexit_max = 0, bent_min = ~0ull, bent_max = 0, bexit_max = 0;
      for (int i = 0; i < 132; ++i) t0 = std::min(t0, a[2 * i]), aexit_min = std::min(aexit_min, a[2 * i + 1]), aexit_max = std::max(aexit_max, a[2 * i + 1]);
      int early = 0;
      for (int i = 0; i < 120; ++i) { bent_min = std::min(bent_min, b[2 * i]); bent_max = std::max(bent_max, b[2 * i]); bexit_max = std::max(bexit_max, b[2 * i + 1]); if (b[2*i] < aexit_max) ++early; }
      printf("A cluster %d B cluster %d trigger %s B wait %s | A exit %.2f..%.2f  B entry %.2f..%.2f (%3d before A's last exit)  B exit %.2f us\n",
             ca, cb, trig ? "late " : "start", wait_at ? "end  " : "start", (aexit_min - t0) / 1e3, (aexit_max - t0) / 1e3,
             (bent_min - t0) / 1e3, (bent_max - t0) / 1e3, early, (bexit_max - t0) / 1e3);
    }
  }
  return 0;
}
