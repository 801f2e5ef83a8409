// cake: FP8 GEMM with a fused LoRA correction, the C++ entry points.
//
//   out = a_scale * b_scale * (a @ b^T) + lora_scale * (d @ lora_b^T) [+ bias]  -> bf16
//
// a [M,K] and b [N,K] are FP8 E4M3 (row-major, K contiguous) with per-tensor fp32
// device scales; d [M,r] and lora_b [N,r] are BF16 with r in {32, 64, 128}; the
// correction is summed in fp32 in the same kernel and the result is rounded once.
// All pointers are device pointers on the current CUDA device. Nothing is read on
// the host, nothing is allocated, nothing synchronises: the call is safe inside
// CUDA-graph capture. Programs are launched with programmatic dependent launch.
//
// Errors: cake::InvalidArgument (the contract, docs/contract.md; nothing is
// launched), cake::UnsupportedArchitecture, cake::CudaError.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime_api.h>

#include <cstdint>

#include "cake/errors.h"
#include "cake/plan.h"

namespace cake {

struct MmFp8LoraArgs {
  int64_t M = 0, N = 0, K = 0;
  const __nv_fp8_e4m3* a = nullptr;  // [M, K], row pitch lda elements (>= K)
  int64_t lda = 0;                   // 0 means K
  const __nv_fp8_e4m3* b = nullptr;  // [N, K], row pitch ldb elements (>= K)
  int64_t ldb = 0;                   // 0 means K
  const float* a_scale = nullptr;    // one fp32 on the device
  const float* b_scale = nullptr;    // one fp32 on the device
  // The adapter. lora_scale == nullptr turns it off (d, lora_b, r are ignored).
  // A device lora_scale holding +0.0 or -0.0 also turns it off, decided on the
  // device: bitwise the same output as the adapter-off call.
  const float* lora_scale = nullptr;
  const __nv_bfloat16* d = nullptr;       // [M, r], contiguous
  const __nv_bfloat16* lora_b = nullptr;  // [N, r], contiguous
  int64_t r = 0;                          // 32, 64 or 128
  const __nv_bfloat16* bias = nullptr;    // [N] or nullptr
  __nv_bfloat16* out = nullptr;           // [M, N], contiguous
};

// out = a_scale*b_scale*(a @ b^T) + lora_scale*(d @ lora_b^T) [+ bias] on `stream`.
void mm_fp8_lora(const MmFp8LoraArgs& args, cudaStream_t stream);

// The same programs with the adapter off (the adapter fields of args are ignored).
void mm_fp8(const MmFp8LoraArgs& args, cudaStream_t stream);

// The plan the launcher would use for `args` on the current device (checks the
// contract first, launches nothing).
Plan plan_for(const MmFp8LoraArgs& args);

// The SMs cake's programs may use on `device`: its plans are made for that many
// (the plan's SM count) and launch at most that many CTAs. An engine that runs
// other kernels beside the GEMM (a tensor-parallel all-reduce, expert dispatch)
// leaves them the rest. 0, the default, means all of the device's SMs. Throws
// cake::InvalidArgument unless 0 <= sms <= the device's SM count (the limit is
// then unchanged). Calls already captured in a CUDA graph keep their plans.
void set_num_sms(int device, int sms);

// The SM count cake plans for on `device`: the limit set, or all of its SMs.
int num_sms(int device);

}  // namespace cake
