// The build's wgmma guard (cmake/wgmma_guard.sh) on a chain of four wgmma, compiled
// only (ctest: wgmma_guard.*). Issued under a runtime condition, as version 57's
// adapter was, ptxas injects a warpgroup.arrive before each instruction (C7519)
// and the guard must fail the compile; as straight-line code (-DCAKE_STRAIGHT) it
// must pass.
#include <cstdint>

__device__ __forceinline__ void mma(uint64_t da, uint64_t db, float (&d)[4], bool accumulate) {
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %6, 0;\n"
      " wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "l"(da), "l"(db), "r"(static_cast<int>(accumulate)));
}

__global__ void chain(float* out, uint64_t da, uint64_t db, int steps) {
  float d[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
  for (int i = 0; i < 4; ++i) {
#ifndef CAKE_STRAIGHT
    if (i >= steps) break;
#endif
    mma(da + 2 * i, db + 2 * i, d, i > 0);
  }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  for (int i = 0; i < 4; ++i) out[threadIdx.x * 4 + i] = d[i];
}
