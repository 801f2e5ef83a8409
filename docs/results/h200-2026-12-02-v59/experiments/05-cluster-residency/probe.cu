// How many clusters of 1..16 CTAs are resident at once on this GPU when each CTA
// takes a Hopper program's shared memory (227 KiB) and 384 threads: what a
// stream-K form inside clusters (partials in distributed shared memory) could use.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void probe_kernel(int* out) {
  extern __shared__ int smem[];
  if (threadIdx.x == 0) smem[0] = blockIdx.x;
  __syncthreads();
  if (threadIdx.x == 0 && out) out[blockIdx.x] = smem[0];
}

int main() {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const int smem = 232448;
  cudaFuncSetAttribute(probe_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  cudaFuncSetAttribute(probe_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  printf("SMs %d, %d bytes of shared memory and 384 threads per CTA\n", sms, smem);
  for (int size : {1, 2, 4, 8, 16}) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(size * 64);
    cfg.blockDim = dim3(384);
    cfg.dynamicSmemBytes = smem;
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = size;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    int clusters = -1;
    cudaError_t e = cudaOccupancyMaxActiveClusters(&clusters, probe_kernel, &cfg);
    printf("cluster of %2d: %3d resident clusters = %3d CTAs (%s)\n", size, clusters, clusters * size,
           cudaGetErrorString(e));
  }
  return 0;
}
