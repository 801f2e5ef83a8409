// CUTLASS's own SM90 FP8 GEMM as a third reference beside cuBLASLt (cake_bench
// --cutlass): out[M,N] (bf16) = alpha * a[M,K] @ b[N,K]^T, built the way a CUTLASS
// user builds it (collective builders, persistent tile scheduler), in the two
// accumulation modes: promoted every 128 K (CUTLASS's default FP8 mainloop, the
// accumulation cake's accuracy bar asks for) and fast accumulation (the FP8FastAccum
// schedules, what engines built on CUTLASS run). The benchmark times every
// configuration that can run a shape and keeps the fastest of each mode, as
// CUTLASS's profiler would. Nothing of this is part of cake.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cake::bench::cutlass_ref {

struct Problem {
  int M, N, K;
  const void* a;       // e4m3 [M, K], row-major
  const void* b;       // e4m3 [N, K], row-major
  void* out;           // bf16 [M, N], row-major
  const float* alpha;  // device scalar: a_scale * b_scale
};

struct Config {
  const char* name;  // tile, cluster, schedule; "swap" computes out^T = b a^T (weights on the tile's M side)
  bool fast_accum;
  // Workspace bytes the configuration needs for `p` at raster swizzle `swizzle`, or
  // SIZE_MAX where CUTLASS cannot implement it.
  size_t (*workspace)(const Problem& p, int swizzle);
  cudaError_t (*run)(const Problem& p, int swizzle, void* workspace, cudaStream_t stream);
};

// Every configuration built into this benchmark.
const std::vector<Config>& configs();

}  // namespace cake::bench::cutlass_ref
