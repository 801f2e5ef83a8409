// TMA descriptors for 2-D row-major tensors, encoded on the host for each call
// (they are kernel parameters, so a captured CUDA graph keeps the pointers).
#pragma once

#include <cuda.h>

#include <cstdint>

namespace cake {

// A [rows, cols] row-major tensor with `pitch_bytes` between rows, read or written
// in boxes of box_rows x box_cols elements: with the 128-byte swizzle (box_cols *
// elem_bytes must be 128), or without (plain rows of box_cols * elem_bytes, a
// multiple of 16). Out-of-bounds box elements load as zero and are not stored.
// Throws cake::CudaError when the driver refuses the description.
CUtensorMap make_tensor_map(const void* base, CUtensorMapDataType dtype, int elem_bytes,
                            uint64_t rows, uint64_t cols, uint64_t pitch_bytes, uint32_t box_rows,
                            uint32_t box_cols, CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_128B);

}  // namespace cake
