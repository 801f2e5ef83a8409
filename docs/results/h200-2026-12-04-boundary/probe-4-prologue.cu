// Probe 4: what a 384-thread CTA's prologue costs on an SM another grid's CTA just left.
// B's thread 0 stamps: entry, after its set-up part (variants), after __syncthreads, after a global load.
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda.h>
#include <cuda_runtime.h>
__device__ __forceinline__ unsigned long long gns() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
struct Maps { CUtensorMap m[7]; };
__global__ void __launch_bounds__(384, 1) primary(int spin_ns, int jitter_ns) {
  extern __shared__ __align__(128) char smem[];
  unsigned long long t0 = gns();
  asm volatile("griddepcontrol.launch_dependents;");
  unsigned long long until = t0 + spin_ns + (unsigned long long)((blockIdx.x * 7919u) % 132u) * jitter_ns / 132u;
  if (threadIdx.x == 0) smem[0] = 1;
  while (gns() < until) {}
}
// variant bits: 1 prefetch 7 tensor maps, 2 init 12 mbarriers + fence, 4 __syncthreads, 8 setmaxnreg
__global__ void __launch_bounds__(384, 1) secondary(const __grid_constant__ Maps maps, unsigned long long* rec,
                                                      const float* scalar, int variant) {
  extern __shared__ __align__(128) char smem[];
  unsigned long long t0 = gns(), t1 = 0, t2 = 0, t3 = 0;
  uint64_t* bars = reinterpret_cast<uint64_t*>(smem);
  if (threadIdx.x == 0) {
    if (variant & 1)
      for (int i = 0; i < 7; ++i) asm volatile("prefetch.tensormap [%0];" :: "l"(&maps.m[i]) : "memory");
    if (variant & 2) {
      for (int i = 0; i < 12; ++i) {
        unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(bars + i));
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(a), "r"(1));
      }
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    t1 = gns();
  }
  if (variant & 4) __syncthreads();
  if (threadIdx.x == 0) t2 = gns();
  if (variant & 8) {
    if (threadIdx.x < 128) asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    else asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  }
  float s = *scalar;
  if (threadIdx.x == 0) {
    t3 = gns();
    rec[4 * blockIdx.x] = t0, rec[4 * blockIdx.x + 1] = t1, rec[4 * blockIdx.x + 2] = t2;
    rec[4 * blockIdx.x + 3] = s == 12345.f ? 0 : t3;
  }
  asm volatile("griddepcontrol.wait;" ::: "memory");
}
int main() {
  unsigned long long* rb; float* scalar; unsigned char* data;
  cudaMalloc(&rb, 4096 * 8); cudaMalloc(&scalar, 4); cudaMemset(scalar, 0, 4); cudaMalloc(&data, 1 << 24);
  Maps maps;
  for (int i = 0; i < 7; ++i) {
    cuuint64_t dims[2] = {4096, 4096}, strides[1] = {4096};
    cuuint32_t box[2] = {128, 128}, es[2] = {1, 1};
    CUresult r = cuTensorMapEncodeTiled(&maps.m[i], CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, data, dims, strides, box, es,
                                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                        CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) { printf("encode failed %d\n", r); return 1; }
  }
  int smem = 215040;
  cudaFuncSetAttribute(primary, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  cudaFuncSetAttribute(secondary, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  cudaStream_t st; cudaStreamCreate(&st);
  for (int after : {0, 1})
  for (int variant : {0, 1, 2, 4, 6, 7}) {
    std::vector<double> d1, d2, d3;
    for (int rep = 0; rep < 5; ++rep) {
      cudaLaunchAttribute at[1]; at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
      at[0].val.programmaticStreamSerializationAllowed = 1;
      if (after) {
        cudaLaunchConfig_t c{}; c.gridDim = 132; c.blockDim = 384; c.dynamicSmemBytes = smem; c.stream = st; c.attrs = at; c.numAttrs = 1;
        cudaLaunchKernelEx(&c, primary, 20000, 3000);
      }
      cudaLaunchConfig_t d{}; d.gridDim = 120; d.blockDim = 384; d.dynamicSmemBytes = smem; d.stream = st; d.attrs = at; d.numAttrs = after;
      cudaLaunchKernelEx(&d, secondary, maps, rb, (const float*)scalar, variant);
      cudaError_t e = cudaStreamSynchronize(st);
      if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
      std::vector<unsigned long long> b(480);
      cudaMemcpy(b.data(), rb, 480 * 8, cudaMemcpyDeviceToHost);
      for (int i = 0; i < 120; ++i) {
        d1.push_back((b[4 * i + 1] - b[4 * i]) / 1e3); d2.push_back((b[4 * i + 2] - b[4 * i + 1]) / 1e3);
        d3.push_back((b[4 * i + 3] - b[4 * i + 2]) / 1e3);
      }
    }
    auto med = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
    auto p90 = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() * 9 / 10]; };
    printf("%-26s variant %2d (prefetch %d, barriers %d, syncthreads %d, setmaxnreg %d) | set-up %.2f [%.2f]  to after sync %.2f [%.2f]  to after the load %.2f [%.2f] us (median [p90])\n",
           after ? "on SMs a grid just left" : "on idle SMs", variant, variant & 1, (variant >> 1) & 1, (variant >> 2) & 1,
           (variant >> 3) & 1, med(d1), p90(d1), med(d2), p90(d2), med(d3), p90(d3));
  }
  return 0;
}
