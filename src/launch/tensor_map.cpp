#include "launch/tensor_map.h"

#include <cuda_runtime_api.h>

#include <mutex>
#include <sstream>

#include "cake/errors.h"

namespace cake {
namespace {

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                 const cuuint64_t*, const cuuint32_t*, const cuuint32_t*,
                                 CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion,
                                 CUtensorMapFloatOOBfill);

// The driver entry point, found through the runtime so that cake does not link
// libcuda directly.
EncodeTiled encode_tiled() {
  static EncodeTiled fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult status{};
    const cudaError_t e =
        cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &status);
    if (e != cudaSuccess || status != cudaDriverEntryPointSuccess || p == nullptr)
      throw CudaError("cake: the CUDA driver has no cuTensorMapEncodeTiled (driver too old?)");
    return reinterpret_cast<EncodeTiled>(p);
  }();
  return fn;
}

}  // namespace

CUtensorMap make_tensor_map(const void* base, CUtensorMapDataType dtype, int elem_bytes,
                            uint64_t rows, uint64_t cols, uint64_t pitch_bytes, uint32_t box_rows,
                            uint32_t box_cols, CUtensorMapSwizzle swizzle) {
  CUtensorMap map{};
  const cuuint64_t dims[2] = {cols, rows};
  const cuuint64_t strides[1] = {pitch_bytes};
  const cuuint32_t box[2] = {box_cols, box_rows};
  const cuuint32_t element_strides[2] = {1, 1};
  // L2 fills of 128 bytes, a box row's width: 256-byte fills also bring the next
  // K block's half of each row, which the weight-streaming programs paid for (H200,
  // r = 128, the default grid side by side, two runs each, 128 against 256 bytes:
  // M <= 64 geomean 0.984, M = 1, N = 28672 31.15 against 32.34 us, M = 128 39.20
  // against 40.16; larger M the same within the spread).
  const CUresult r = encode_tiled()(&map, dtype, 2, const_cast<void*>(base), dims, strides, box,
                                    element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                    swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::ostringstream os;
    os << "cake: cuTensorMapEncodeTiled refused a [" << rows << ", " << cols << "] tensor (pitch "
       << pitch_bytes << " bytes, box " << box_rows << " x " << box_cols << ", " << elem_bytes
       << "-byte elements): CUresult " << static_cast<int>(r);
    throw CudaError(os.str());
  }
  return map;
}

}  // namespace cake
