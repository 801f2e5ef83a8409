// PDL overlap probe 3: do the kernels' registers decide whether the dependent's CTAs take freed SMs?
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
__device__ __forceinline__ unsigned long long gns() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
// Many live values: ptxas keeps them in registers (up to -maxrregcount).
template <int N>
__device__ __forceinline__ float heavy(const float* in, int salt) {
  float v[N];
#pragma unroll
  for (int i = 0; i < N; ++i) v[i] = in[(i * 33 + salt) & 1023];
#pragma unroll
  for (int it = 0; it < 4; ++it)
#pragma unroll
    for (int i = 0; i < N; ++i) v[i] = v[i] * v[(i + 1) % N] + 1.0f;
  float s = 0;
#pragma unroll
  for (int i = 0; i < N; ++i) s += v[i];
  return s;
}
template <bool kHeavy>
__global__ void __launch_bounds__(384, 1) primary(unsigned long long* rec, const float* in, float* sink, int spin_ns, int jitter_ns, int regs) {
  extern __shared__ __align__(128) char smem[];
  unsigned long long t0 = gns();
  asm volatile("griddepcontrol.launch_dependents;");
  const int wg = threadIdx.x / 128;
  if (regs) {
    if (wg == 0) asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    else asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  }
  float s = 0;
  if (kHeavy && wg > 0) s = heavy<150>(in, threadIdx.x);
  unsigned long long until = t0 + spin_ns + (unsigned long long)((blockIdx.x * 7919u) % 132u) * jitter_ns / 132u;
  if (threadIdx.x == 0) smem[0] = 1;
  while (gns() < until) {}
  if (s == 12345.f) sink[threadIdx.x] = s;
  if (threadIdx.x == 128) { rec[2 * blockIdx.x] = t0; rec[2 * blockIdx.x + 1] = gns(); }
}
template <bool kHeavy>
__global__ void __launch_bounds__(384, 1) secondary(unsigned long long* rec, const float* in, float* sink, int spin_ns) {
  extern __shared__ char smem[];
  unsigned long long t0 = gns();
  float s = 0;
  if (kHeavy) s = heavy<150>(in, threadIdx.x);
  if (threadIdx.x == 0) smem[0] = 1;
  while (gns() < t0 + spin_ns) {}
  if (s == 12345.f) sink[threadIdx.x] = s;
  asm volatile("griddepcontrol.wait;" ::: "memory");
  if (threadIdx.x == 0) { rec[2 * blockIdx.x] = t0; rec[2 * blockIdx.x + 1] = gns(); }
}
template <typename P, typename S>
void run(P primary_k, S secondary_k, const char* name, int regs) {
  static unsigned long long *ra = nullptr, *rb; static float *in, *sink;
  if (!ra) { cudaMalloc(&ra, 4096 * 8); cudaMalloc(&rb, 4096 * 8); cudaMalloc(&in, 4096 * 4); cudaMemset(in, 0, 4096 * 4); cudaMalloc(&sink, 4096 * 4); }
  int smem = 215040;
  cudaFuncSetAttribute(primary_k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  cudaFuncSetAttribute(secondary_k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  cudaFuncAttributes fa, fb; cudaFuncGetAttributes(&fa, primary_k); cudaFuncGetAttributes(&fb, secondary_k);
  cudaStream_t s; cudaStreamCreate(&s);
  for (int ca : {1, 2}) for (int rep = 0; rep < 2; ++rep) {
    cudaLaunchAttribute aa[2]; aa[0].id = cudaLaunchAttributeClusterDimension; aa[0].val.clusterDim = {(unsigned)ca, 1, 1};
    aa[1].id = cudaLaunchAttributeProgrammaticStreamSerialization; aa[1].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t c{}; c.gridDim = 132; c.blockDim = 384; c.dynamicSmemBytes = smem; c.stream = s; c.attrs = aa; c.numAttrs = 2;
    cudaLaunchKernelEx(&c, primary_k, ra, (const float*)in, sink, 20000, 3000, regs);
    cudaLaunchAttribute ab[2]; ab[0].id = cudaLaunchAttributeClusterDimension; ab[0].val.clusterDim = {1, 1, 1}; ab[1] = aa[1];
    cudaLaunchConfig_t d{}; d.gridDim = 120; d.blockDim = 384; d.dynamicSmemBytes = smem; d.stream = s; d.attrs = ab; d.numAttrs = 2;
    cudaLaunchKernelEx(&d, secondary_k, rb, (const float*)in, sink, 5000);
    cudaError_t e = cudaStreamSynchronize(s);
    if (e != cudaSuccess) { printf("%s error %s\n", name, cudaGetErrorString(e)); return; }
    std::vector<unsigned long long> a(264), b(240);
    cudaMemcpy(a.data(), ra, 264 * 8, cudaMemcpyDeviceToHost); cudaMemcpy(b.data(), rb, 240 * 8, cudaMemcpyDeviceToHost);
    unsigned long long t0 = ~0ull, e_lo = ~0ull, e_hi = 0, b_lo = ~0ull, b_hi = 0;
    for (int i = 0; i < 132; ++i) t0 = std::min(t0, a[2 * i]), e_lo = std::min(e_lo, a[2 * i + 1]), e_hi = std::max(e_hi, a[2 * i + 1]);
    int early = 0;
    for (int i = 0; i < 120; ++i) { b_lo = std::min(b_lo, b[2 * i]); b_hi = std::max(b_hi, b[2 * i]); if (b[2 * i] < e_hi) ++early; }
    printf("%-28s regs A %3d B %3d setmaxnreg %d cluster %d | A exit %.2f..%.2f  B entry %.2f..%.2f (%3d before A's last exit)\n", name,
           fa.numRegs, fb.numRegs, regs, ca, (e_lo - t0) / 1e3, (e_hi - t0) / 1e3, (b_lo - t0) / 1e3, (b_hi - t0) / 1e3, early);
  }
}
int main() {
  run(primary<false>, secondary<false>, "light A, light B", 0);
  run(primary<false>, secondary<true>, "light A, heavy B", 0);
  run(primary<true>, secondary<false>, "heavy A, light B", 1);
  run(primary<true>, secondary<true>, "heavy A, heavy B", 1);
  return 0;
}
