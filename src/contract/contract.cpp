// The argument contract (docs/contract.md, section 3), every rule once.
#include "cake/contract.h"

#include <cstdint>
#include <sstream>
#include <string>

#include "cake/errors.h"

namespace cake {
namespace {

template <typename... Parts>
[[noreturn]] void fail(const char* op, const Parts&... parts) {
  std::ostringstream os;
  os << op << ": ";
  (os << ... << parts);
  throw InvalidArgument(os.str());
}

// A tensor's extents as messages print them: "[2, 3]" for a shape, "(3, 1)" for strides.
std::string extents_str(const int64_t* v, int ndim, const char* open, const char* close) {
  std::ostringstream os;
  os << open;
  for (int i = 0; i < ndim; ++i) os << (i ? ", " : "") << v[i];
  os << close;
  return os.str();
}

std::string shape_str(const TensorDesc& t) { return extents_str(t.shape, t.ndim, "[", "]"); }
std::string strides_str(const TensorDesc& t) { return extents_str(t.strides, t.ndim, "(", ")"); }

std::string dtype_label(const TensorDesc& t) {
  if (!t.dtype_label.empty()) return t.dtype_label;
  return t.dtype == DType::kOther ? "another dtype" : dtype_name(t.dtype);
}

std::string device_label(const TensorDesc& t) {
  if (!t.device_label.empty()) return t.device_label;
  return t.on_cuda ? "cuda:" + std::to_string(t.device) : "a device that is not CUDA";
}

std::string hex(const void* p) {
  std::ostringstream os;
  os << "0x" << std::hex << reinterpret_cast<uintptr_t>(p);
  return os.str();
}

int64_t numel(const TensorDesc& t) {
  int64_t n = 1;
  for (int i = 0; i < t.ndim; ++i) n *= t.shape[i];
  return n;
}

// dtype, then rank (ndim < 0 skips it), then device: the order a reader fixes them in.
void expect(const char* op, const char* name, const TensorDesc& t, DType dtype, int ndim,
            const char* rank_hint, const TensorDesc* same_device_as, const char* other_name) {
  if (t.dtype != dtype)
    fail(op, name, " must be ", dtype_name(dtype), " (got ", dtype_label(t), ")");
  if (ndim >= 0 && t.ndim != ndim)
    fail(op, name, " must be ", ndim, "-D ", rank_hint, " (got ", t.ndim, "-D ", shape_str(t), ")");
  if (!t.on_cuda) fail(op, name, " must be on a CUDA device (got ", device_label(t), ")");
  if (same_device_as && t.device != same_device_as->device)
    fail(op, name, " must be on the same device as ", other_name, " (", device_label(*same_device_as),
         ") (got ", device_label(t), ")");
}

void expect_scalar(const char* op, const char* name, const TensorDesc& t, const TensorDesc& a) {
  expect(op, name, t, DType::kFloat32, -1, "", &a, "a");
  if (numel(t) != 1)
    fail(op, name, " must be a one-element fp32 tensor (got shape ", shape_str(t), ")");
}

// Row-major with unit inner stride; returns the row pitch in elements.
int64_t row_pitch(const char* op, const char* name, const TensorDesc& t) {
  const int64_t rows = t.shape[0], cols = t.shape[1];
  if (cols > 1 && t.strides[1] != 1)
    fail(op, name, " must be row-major with unit inner stride (got strides ", strides_str(t), ")");
  if (rows > 1 && t.strides[0] < cols)
    fail(op, name, " must be row-major with rows at least ", cols,
         " elements apart (got strides ", strides_str(t), ")");
  return rows > 1 ? t.strides[0] : cols;
}

bool contiguous(const TensorDesc& t) {
  int64_t expected = 1;
  for (int i = t.ndim - 1; i >= 0; --i) {
    if (t.shape[i] != 1 && t.strides[i] != expected) return false;
    expected *= t.shape[i];
  }
  return true;
}

void expect_contiguous(const char* op, const char* name, const TensorDesc& t) {
  if (!contiguous(t))
    fail(op, name, " must be contiguous (got shape ", shape_str(t), ", strides ", strides_str(t), ")");
}

struct Span {
  const char* name;
  const void* ptr;
  int64_t bytes;
};

bool overlaps(const Span& x, const Span& y) {
  if (!x.ptr || !y.ptr || x.bytes <= 0 || y.bytes <= 0) return false;
  const auto x0 = reinterpret_cast<uintptr_t>(x.ptr), y0 = reinterpret_cast<uintptr_t>(y.ptr);
  return x0 < y0 + static_cast<uintptr_t>(y.bytes) && y0 < x0 + static_cast<uintptr_t>(x.bytes);
}

void expect_aligned(const char* op, const char* name, const void* p, unsigned bytes,
                    const char* why) {
  if (reinterpret_cast<uintptr_t>(p) % bytes != 0)
    fail(op, name, " must be ", bytes, "-byte aligned", why, " (got address ", hex(p), ")");
}

}  // namespace

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::kFloat8E4M3: return "float8_e4m3fn";
    case DType::kBFloat16: return "bfloat16";
    case DType::kFloat32: return "float32";
    default: return "an unsupported dtype";
  }
}

void check_options(const char* op, const std::string& backend, std::optional<bool> enable_pdl) {
  if (backend != "cake" && backend != "auto")
    fail(op, "backend must be \"cake\" or \"auto\" (got \"", backend, "\")");
  if (enable_pdl.has_value() && !*enable_pdl)
    fail(op, "enable_pdl must be None or True: the programs are built with programmatic "
             "dependent launch (got False)");
}

CheckedTensors check_tensors(const char* op, const MmTensors& t) {
  CheckedTensors c;
  MmFp8LoraArgs& args = c.args;

  expect(op, "a", t.a, DType::kFloat8E4M3, 2, "[M, K]", nullptr, nullptr);
  expect(op, "b", t.b, DType::kFloat8E4M3, 2, "[N, K]", &t.a, "a");
  args.M = t.a.shape[0];
  args.K = t.a.shape[1];
  args.N = t.b.shape[0];
  if (t.b.shape[1] != args.K)
    fail(op, "b must be [N, K] with the K of a (got a ", shape_str(t.a), ", b ", shape_str(t.b), ")");
  args.a = static_cast<const __nv_fp8_e4m3*>(t.a.data);
  args.b = static_cast<const __nv_fp8_e4m3*>(t.b.data);
  args.lda = row_pitch(op, "a", t.a);
  args.ldb = row_pitch(op, "b", t.b);

  expect_scalar(op, "a_scale", t.a_scale, t.a);
  expect_scalar(op, "b_scale", t.b_scale, t.a);
  args.a_scale = static_cast<const float*>(t.a_scale.data);
  args.b_scale = static_cast<const float*>(t.b_scale.data);

  // lora_scale=None turns the adapter off: d and lora_b are then not looked at.
  if (t.lora_scale) {
    expect_scalar(op, "lora_scale", *t.lora_scale, t.a);
    if (!t.d || !t.lora_b)
      fail(op, "lora_scale was given, so d and lora_b are required (got ",
           !t.d ? "d=None" : "lora_b=None", ")");
    const TensorDesc& d = *t.d;
    const TensorDesc& lb = *t.lora_b;
    expect(op, "d", d, DType::kBFloat16, 2, "[M, r]", &t.a, "a");
    if (d.shape[0] != args.M)
      fail(op, "d must be [M, r] with the M of a (got d ", shape_str(d), ", M=", args.M, ")");
    expect_contiguous(op, "d", d);
    expect(op, "lora_b", lb, DType::kBFloat16, 2, "[N, r]", &t.a, "a");
    if (lb.shape[0] != args.N || lb.shape[1] != d.shape[1])
      fail(op, "lora_b must be [N, r] with the N of b and the r of d (got lora_b ", shape_str(lb),
           ", N=", args.N, ", r=", d.shape[1], "); a [r, N] factor must be transposed and made "
           "contiguous by the caller");
    expect_contiguous(op, "lora_b", lb);
    args.lora_scale = static_cast<const float*>(t.lora_scale->data);
    args.d = static_cast<const __nv_bfloat16*>(d.data);
    args.lora_b = static_cast<const __nv_bfloat16*>(lb.data);
    args.r = d.shape[1];
  }

  if (t.bias) {
    expect(op, "bias", *t.bias, DType::kBFloat16, 1, "[N]", &t.a, "a");
    if (t.bias->shape[0] != args.N)
      fail(op, "bias must be [N] = [", args.N, "] (got ", shape_str(*t.bias), ")");
    expect_contiguous(op, "bias", *t.bias);
    args.bias = static_cast<const __nv_bfloat16*>(t.bias->data);
  }

  expect(op, "out", t.out, DType::kBFloat16, 2, "[M, N]", &t.a, "a");
  if (t.out.shape[0] != args.M || t.out.shape[1] != args.N)
    fail(op, "out must be [M, N] = [", args.M, ", ", args.N, "] (got ", shape_str(t.out), ")");
  expect_contiguous(op, "out", t.out);
  args.out = static_cast<__nv_bfloat16*>(const_cast<void*>(t.out.data));

  c.device = t.a.device;
  return c;
}

void check_problem(const char* op, const MmFp8LoraArgs& p, Arch arch) {
  const bool adapter = p.lora_scale != nullptr;
  const char* an = arch_name(arch);

  if (p.M < 1) fail(op, "M must be >= 1 (got M=", p.M, ")");
  if (p.N < 8 || p.N % 8 != 0) fail(op, "N must be a positive multiple of 8 (got N=", p.N, ")");
  const int64_t k_multiple = arch == Arch::SM90 ? 16 : 128;
  if (p.K < k_multiple || p.K % k_multiple != 0)
    fail(op, "K must be a positive multiple of ", k_multiple, " on ", an, " (got K=", p.K, ")");
  if (arch == Arch::SM90 && p.M * p.N > (int64_t{1} << 32))
    fail(op, "M * N must be <= 2**32 on ", an, " (got M=", p.M, ", N=", p.N, ", M*N=", p.M * p.N,
         ")");
  if (adapter && p.r != 32 && p.r != 64 && p.r != 128)
    fail(op, "the LoRA rank r = d.shape[1] must be one of 32, 64, 128 (got r=", p.r, ")");

  const struct {
    const char* name;
    const void* ptr;
    bool required;
  } pointers[] = {{"a", p.a, true},
                  {"b", p.b, true},
                  {"a_scale", p.a_scale, true},
                  {"b_scale", p.b_scale, true},
                  {"d", p.d, adapter},
                  {"lora_b", p.lora_b, adapter},
                  {"out", p.out, true}};
  for (const auto& q : pointers)
    if (q.required && !q.ptr) fail(op, q.name, " must not be null");

  const int64_t lda = p.lda ? p.lda : p.K;
  const int64_t ldb = p.ldb ? p.ldb : p.K;
  if (lda < p.K) fail(op, "a's row pitch must be >= K (got lda=", lda, ", K=", p.K, ")");
  if (ldb < p.K) fail(op, "b's row pitch must be >= K (got ldb=", ldb, ", K=", p.K, ")");

  // The tensor-memory accelerator needs 16-byte aligned bases and row pitches.
  const char* tma = " for the tensor-memory accelerator";
  expect_aligned(op, "a", p.a, 16, tma);
  expect_aligned(op, "b", p.b, 16, tma);
  if (lda % 16 != 0)
    fail(op, "a's row pitch must be a multiple of 16 bytes (got ", lda, " bytes)");
  if (ldb % 16 != 0)
    fail(op, "b's row pitch must be a multiple of 16 bytes (got ", ldb, " bytes)");
  expect_aligned(op, "out", p.out, 16, tma);
  expect_aligned(op, "a_scale", p.a_scale, 4, "");
  expect_aligned(op, "b_scale", p.b_scale, 4, "");
  if (adapter) {
    expect_aligned(op, "lora_scale", p.lora_scale, 4, "");
    expect_aligned(op, "d", p.d, 16, tma);
    expect_aligned(op, "lora_b", p.lora_b, 16, tma);
  }
  expect_aligned(op, "bias", p.bias, 2, "");

  // `out` is written while the inputs are read: no byte may be shared.
  const Span out{"out", p.out, p.M * p.N * 2};
  const Span inputs[] = {
      {"a", p.a, (p.M - 1) * lda + p.K},
      {"b", p.b, (p.N - 1) * ldb + p.K},
      {"a_scale", p.a_scale, 4},
      {"b_scale", p.b_scale, 4},
      {"lora_scale", adapter ? p.lora_scale : nullptr, 4},
      {"d", adapter ? p.d : nullptr, p.M * p.r * 2},
      {"lora_b", adapter ? p.lora_b : nullptr, p.N * p.r * 2},
      {"bias", p.bias, p.N * 2},
  };
  for (const Span& in : inputs)
    if (overlaps(out, in))
      fail(op, "out must not overlap any input (it overlaps ", in.name, ": out at ", hex(out.ptr),
           " + ", out.bytes, " bytes, ", in.name, " at ", hex(in.ptr), " + ", in.bytes, " bytes)");
}

}  // namespace cake
