// Definition of run_program<Shape>: included only by the per-program translation
// units in programs/.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "cake/errors.h"
#include "launch/device.h"
#include "sm90/program.cuh"
#include "sm90/run_program.h"

namespace cake::sm90 {

// The kernel of a program, promoting every kPromotionK elements of K, its pairs
// lying along P (kShareQ) or along Q.
template <typename Shape, int kPromotionK, bool kShareQ>
constexpr auto kernel_of = &fp8_lora_program<Shape, kPromotionK / 32, kShareQ>;

// The kernel, its dynamic shared-memory limit set on `device` (a per-device
// function attribute; once per device).
template <typename Shape, int kPromotionK, bool kShareQ = Shape::kPairsShareQ>
auto configured_kernel(int device) {
  static std::atomic<uint64_t> configured{0};
  const uint64_t bit = uint64_t{1} << (device & 63);
  if (!(configured.load(std::memory_order_acquire) & bit)) {
    check_cuda(cudaFuncSetAttribute(kernel_of<Shape, kPromotionK, kShareQ>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, Shape::kSmemUse),
               "cudaFuncSetAttribute(max dynamic shared memory)");
    configured.fetch_or(bit, std::memory_order_acq_rel);
  }
  return kernel_of<Shape, kPromotionK, kShareQ>;
}

// The kernel for a promotion depth and a way of pairing: built both ways only
// for the programs whose pairs lie either way (config.h kPairsBothWays); a way a
// program is not built for is refused before anything is launched.
template <typename Shape, int kPromotionK>
auto kernel_for(bool share_q, int device) {
  if (share_q != Shape::kPairsShareQ) {
    if constexpr (Shape::kPairsBothWays) return configured_kernel<Shape, kPromotionK, !Shape::kPairsShareQ>(device);
    throw InvalidArgument("cake: the " + std::to_string(Shape::kBlockP) + " x " + std::to_string(Shape::kBlockQ) +
                          (Shape::kSwapAB ? " turned" : "") + " program's CTA pairs do not lie along " +
                          (share_q ? "P" : "Q"));
  }
  return configured_kernel<Shape, kPromotionK>(device);
}

template <typename Shape>
int max_active_clusters(int split) {
  // Both promotion depths take the same registers and shared memory.
  auto* kernel = configured_kernel<Shape, kPromotionShortK>(current_device());
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = split, attr.val.clusterDim.y = 1, attr.val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(split * 64));
  config.blockDim = dim3(Shape::kThreads);
  config.dynamicSmemBytes = Shape::kSmemUse;
  config.attrs = &attr;
  config.numAttrs = 1;
  int clusters = 0;
  check_cuda(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config),
             "cudaOccupancyMaxActiveClusters");
  return clusters;
}

template <typename Shape>
void run_program(const TensorMaps& maps, const ProgramParams& params, int promotion_k, bool share_q, int grid,
                 int device, cudaStream_t stream) {
  // A split the program cannot land (a plan made by hand: plan_sm90_program
  // refuses to force one) is refused before anything is launched.
  if (params.split > static_cast<uint32_t>(Shape::kMaxSplit))
    throw InvalidArgument("cake: the " + std::to_string(Shape::kBlockP) + " x " + std::to_string(Shape::kBlockQ) +
                          (Shape::kSwapAB ? " turned" : "") + " program splits K over at most " +
                          std::to_string(Shape::kMaxSplit) + " CTAs (got " + std::to_string(params.split) + ")");
  auto* kernel = promotion_k == kPromotionLongK ? kernel_for<Shape, kPromotionLongK>(share_q, device)
                                                : kernel_for<Shape, kPromotionShortK>(share_q, device);

  cudaLaunchAttribute attrs[2];
  attrs[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attrs[0].val.programmaticStreamSerializationAllowed = 1;
  attrs[1].id = cudaLaunchAttributeClusterDimension;
  attrs[1].val.clusterDim.x = params.split * params.multicast;  // 1 is a plain launch
  attrs[1].val.clusterDim.y = 1;
  attrs[1].val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(grid));
  config.blockDim = dim3(Shape::kThreads);
  config.dynamicSmemBytes = Shape::kSmemUse;
  config.stream = stream;
  config.attrs = attrs;
  config.numAttrs = 2;
  check_cuda(cudaLaunchKernelEx(&config, kernel, maps, params),
             "launching the sm90 program");
}

}  // namespace cake::sm90
