// One CUTLASS SM90 FP8 GEMM configuration (cutlass_reference.h), as CUTLASS's own
// examples build it: collective builders, TMA warp-specialised mainloop and
// epilogue, persistent tile scheduler, out = alpha * acc in the epilogue
// (ScaledAcc, alpha read from the device). kSwap runs the problem as
// out^T[N,M] = b a^T, so that the weights lie on the tile's M side (what small
// batches want); out is then written column-major, which is out's own layout.
#pragma once

#include <cstdint>
#include <type_traits>

#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/util/packed_stride.hpp"
#include "cutlass_reference.h"

namespace cake::bench::cutlass_ref {

// The two kernel schedules of each mode. CUTLASS's FP8 mainloop for the plain
// schedules promotes the tensor cores' partial sums into fp32 every
// mma_promotion_interval = 4 wgmma (128 K); the FP8FastAccum schedules never do.
struct Cooperative {
  using Accurate = cutlass::gemm::KernelTmaWarpSpecializedCooperative;
  using Fast = cutlass::gemm::KernelTmaWarpSpecializedCooperativeFP8FastAccum;
  using Epilogue = cutlass::epilogue::TmaWarpSpecializedCooperative;
};
struct Pingpong {
  using Accurate = cutlass::gemm::KernelTmaWarpSpecializedPingpong;
  using Fast = cutlass::gemm::KernelTmaWarpSpecializedPingpongFP8FastAccum;
  using Epilogue = cutlass::epilogue::TmaWarpSpecialized;
};

template <int kTileM, int kTileN, int kClusterM, int kClusterN, class Schedule, bool kFast, bool kSwap>
struct Gemm {
  using Tile = cute::Shape<cute::Int<kTileM>, cute::Int<kTileN>, cute::_128>;
  using Cluster = cute::Shape<cute::Int<kClusterM>, cute::Int<kClusterN>, cute::_1>;
  using LayoutD = std::conditional_t<kSwap, cutlass::layout::ColumnMajor, cutlass::layout::RowMajor>;
  using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Tile, Cluster,
      cutlass::epilogue::collective::EpilogueTileAuto, float, float, void, LayoutD, 8, cutlass::bfloat16_t, LayoutD,
      8, typename Schedule::Epilogue,
      cutlass::epilogue::fusion::ScaledAcc<cutlass::bfloat16_t, float>>::CollectiveOp;
  using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, cutlass::float_e4m3_t, cutlass::layout::RowMajor, 16,
      cutlass::float_e4m3_t, cutlass::layout::ColumnMajor, 16, float, Tile, Cluster,
      cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename Epilogue::SharedStorage))>,
      std::conditional_t<kFast, typename Schedule::Fast, typename Schedule::Accurate>>::CollectiveOp;
  using Kernel = cutlass::gemm::kernel::GemmUniversal<cute::Shape<int, int, int, int>, Mainloop, Epilogue>;
  using Device = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;

  static typename Device::Arguments arguments(const Problem& p, int swizzle) {
    using StrideA = typename Kernel::StrideA;
    using StrideB = typename Kernel::StrideB;
    using StrideD = typename Kernel::StrideD;
    // CUTLASS's A is [m, k] row-major, its B [n, k] row-major (k x n column-major).
    const int m = kSwap ? p.N : p.M, n = kSwap ? p.M : p.N;
    const void* a = kSwap ? p.b : p.a;
    const void* b = kSwap ? p.a : p.b;
    typename Device::Arguments args{
        cutlass::gemm::GemmUniversalMode::kGemm,
        {m, n, p.K, 1},
        {static_cast<const cutlass::float_e4m3_t*>(a), cutlass::make_cute_packed_stride(StrideA{}, {m, p.K, 1}),
         static_cast<const cutlass::float_e4m3_t*>(b), cutlass::make_cute_packed_stride(StrideB{}, {n, p.K, 1})},
        {{}, nullptr, cutlass::make_cute_packed_stride(StrideD{}, {m, n, 1}), static_cast<cutlass::bfloat16_t*>(p.out),
         cutlass::make_cute_packed_stride(StrideD{}, {m, n, 1})}};
    args.epilogue.thread.alpha_ptr = p.alpha;
    args.scheduler.max_swizzle_size = swizzle;
    return args;
  }
  static size_t workspace(const Problem& p, int swizzle) {
    const auto args = arguments(p, swizzle);
    if (Device::can_implement(args) != cutlass::Status::kSuccess) return SIZE_MAX;
    return Device::get_workspace_size(args);
  }
  static cudaError_t run(const Problem& p, int swizzle, void* workspace, cudaStream_t stream) {
    Device op;
    if (op.initialize(arguments(p, swizzle), workspace, stream) != cutlass::Status::kSuccess) return cudaErrorNotSupported;
    return op.run(stream) == cutlass::Status::kSuccess ? cudaSuccess : cudaErrorLaunchFailure;
  }
  static Config config(const char* name) { return {name, kFast, &workspace, &run}; }
};

}  // namespace cake::bench::cutlass_ref
