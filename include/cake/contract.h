// cake: the argument contract, written once.
//
// Every rule of docs/contract.md lives here and nowhere else. Two layers:
//  - check_tensors(): the rules on tensor descriptions (dtype, rank, shape,
//    strides, device, presence), used by language bindings that receive tensors;
//    it produces the raw-pointer MmFp8LoraArgs;
//  - check_problem(): the rules on the problem itself (sizes per architecture,
//    rank, alignment, overlap), used by every call, C++ and bindings alike.
// Both are pure: they read descriptions, never memory, and throw
// cake::InvalidArgument naming the rule and the offending value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cake/gemm.h"
#include "cake/plan.h"

namespace cake {

enum class DType { kFloat8E4M3, kBFloat16, kFloat32, kOther };
const char* dtype_name(DType dtype);

// A tensor as a binding sees it (a DLPack tensor, for instance). Strides are in
// elements.
struct TensorDesc {
  const void* data = nullptr;
  DType dtype = DType::kOther;
  // The binding's own names of the dtype and device, for messages only (a binding
  // may leave them empty until a rule fails; cake then names what it knows).
  std::string dtype_label;
  int ndim = 0;
  int64_t shape[4] = {0, 0, 0, 0};
  int64_t strides[4] = {0, 0, 0, 0};
  bool on_cuda = false;
  int device = -1;  // CUDA ordinal when on_cuda
  std::string device_label;  // e.g. "cpu", "cuda:1"
};

struct MmTensors {
  TensorDesc a, b, a_scale, b_scale;
  std::optional<TensorDesc> d, lora_b, lora_scale, bias;
  TensorDesc out;
};

struct CheckedTensors {
  MmFp8LoraArgs args;
  int device = -1;
};

// `op` prefixes every message ("mm_fp8_lora" or "mm_fp8"). With
// lora_scale absent, d and lora_b are ignored entirely.
CheckedTensors check_tensors(const char* op, const MmTensors& t);

// backend must be "cake" or "auto"; enable_pdl must be unset or true.
void check_options(const char* op, const std::string& backend, std::optional<bool> enable_pdl);

// The problem rules for `arch`: sizes, r, alignment of every pointer handed to
// the tensor-memory accelerator, row pitches, and that `out` overlaps no input.
void check_problem(const char* op, const MmFp8LoraArgs& args, Arch arch);

}  // namespace cake
