// The argument contract on the CPU: one test per rule, each at its boundary from
// both sides. Pointers are fake (never dereferenced: the contract reads
// descriptions only).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "cake/contract.h"
#include "cake/errors.h"

namespace {

using cake::Arch;
using cake::DType;
using cake::MmFp8LoraArgs;
using cake::TensorDesc;

const void* addr(uintptr_t p) { return reinterpret_cast<const void*>(p); }

// A valid problem: a, b, d, lora_b, bias, out and the scales far apart, 256-aligned.
MmFp8LoraArgs valid(int64_t M = 64, int64_t N = 128, int64_t K = 256, int64_t r = 64) {
  MmFp8LoraArgs p;
  p.M = M, p.N = N, p.K = K, p.r = r;
  p.a = static_cast<const __nv_fp8_e4m3*>(addr(0x1000000000));
  p.b = static_cast<const __nv_fp8_e4m3*>(addr(0x2000000000));
  p.a_scale = static_cast<const float*>(addr(0x3000000000));
  p.b_scale = static_cast<const float*>(addr(0x3100000000));
  p.lora_scale = static_cast<const float*>(addr(0x3200000000));
  p.d = static_cast<const __nv_bfloat16*>(addr(0x4000000000));
  p.lora_b = static_cast<const __nv_bfloat16*>(addr(0x5000000000));
  p.bias = static_cast<const __nv_bfloat16*>(addr(0x6000000000));
  p.out = static_cast<__nv_bfloat16*>(const_cast<void*>(addr(0x7000000000)));
  return p;
}

// Expects InvalidArgument whose message contains `needle`.
#define EXPECT_RULE(stmt, needle)                                                         \
  do {                                                                                    \
    try {                                                                                 \
      stmt;                                                                               \
      ADD_FAILURE() << "accepted, expected a violation of: " << needle;                   \
    } catch (const cake::InvalidArgument& e) {                                            \
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();       \
    }                                                                                     \
  } while (0)

void check(const MmFp8LoraArgs& p, Arch arch = Arch::SM90) {
  cake::check_problem("mm_fp8_lora", p, arch);
}

TEST(ProblemRules, MAtLeastOne) {
  EXPECT_NO_THROW(check(valid(1)));
  EXPECT_RULE(check(valid(0)), "M must be >= 1 (got M=0)");
  EXPECT_RULE(check(valid(-3)), "M must be >= 1 (got M=-3)");
}

TEST(ProblemRules, NPositiveMultipleOf8) {
  for (int64_t n : {8, 16, 24, 4104}) EXPECT_NO_THROW(check(valid(64, n))) << n;
  EXPECT_RULE(check(valid(64, 0)), "N must be a positive multiple of 8 (got N=0)");
  EXPECT_RULE(check(valid(64, 7)), "N must be a positive multiple of 8 (got N=7)");
  EXPECT_RULE(check(valid(64, 9)), "N must be a positive multiple of 8 (got N=9)");
  EXPECT_RULE(check(valid(64, 100)), "N must be a positive multiple of 8 (got N=100)");
}

TEST(ProblemRules, KMultipleOf16OnSm90) {
  for (int64_t k : {16, 32, 48, 16400}) EXPECT_NO_THROW(check(valid(64, 128, k))) << k;
  EXPECT_RULE(check(valid(64, 128, 0)), "K must be a positive multiple of 16 on sm90 (got K=0)");
  EXPECT_RULE(check(valid(64, 128, 8)), "K must be a positive multiple of 16 on sm90 (got K=8)");
  EXPECT_RULE(check(valid(64, 128, 24)), "K must be a positive multiple of 16 on sm90 (got K=24)");
}

TEST(ProblemRules, KMultipleOf128OnBlackwell) {
  for (Arch arch : {Arch::SM100, Arch::SM103}) {
    EXPECT_NO_THROW(check(valid(64, 128, 128), arch));
    EXPECT_NO_THROW(check(valid(64, 128, 256), arch));
    EXPECT_RULE(check(valid(64, 128, 16), arch), "K must be a positive multiple of 128 on sm10");
    EXPECT_RULE(check(valid(64, 128, 112), arch), "(got K=112)");
    EXPECT_RULE(check(valid(64, 128, 144), arch), "(got K=144)");
  }
}

TEST(ProblemRules, MTimesNAtMost2Pow32OnSm90) {
  MmFp8LoraArgs p = valid(65536, 65536, 16, 32);
  p.out = static_cast<__nv_bfloat16*>(const_cast<void*>(addr(0x70000000000)));  // clear of the inputs
  EXPECT_NO_THROW(check(p));  // exactly 2**32
  p.M = 65537;
  EXPECT_RULE(check(p), "M * N must be <= 2**32 on sm90 (got M=65537, N=65536");
  p.K = 128;
  EXPECT_NO_THROW(check(p, Arch::SM100)) << "the limit is SM90's alone";
  EXPECT_NO_THROW(check(p, Arch::SM103));
}

TEST(ProblemRules, RankIn32_64_128) {
  for (int64_t r : {32, 64, 128}) EXPECT_NO_THROW(check(valid(64, 128, 256, r))) << r;
  for (int64_t r : {0, 16, 31, 33, 48, 96, 127, 129, 256})
    EXPECT_RULE(check(valid(64, 128, 256, r)),
                "the LoRA rank r = d.shape[1] must be one of 32, 64, 128 (got r=" + std::to_string(r) + ")");
  MmFp8LoraArgs off = valid(64, 128, 256, 48);
  off.lora_scale = nullptr;  // adapter off: r, d, lora_b are not looked at
  off.d = nullptr;
  EXPECT_NO_THROW(check(off));
}

TEST(ProblemRules, RequiredPointers) {
  const char* names[] = {"a", "b", "a_scale", "b_scale", "out", "d", "lora_b"};
  for (const char* name : names) {
    MmFp8LoraArgs p = valid();
    const std::string n = name;
    if (n == "a") p.a = nullptr;
    if (n == "b") p.b = nullptr;
    if (n == "a_scale") p.a_scale = nullptr;
    if (n == "b_scale") p.b_scale = nullptr;
    if (n == "out") p.out = nullptr;
    if (n == "d") p.d = nullptr;
    if (n == "lora_b") p.lora_b = nullptr;
    EXPECT_RULE(check(p), n + " must not be null");
  }
  MmFp8LoraArgs p = valid();
  p.bias = nullptr;  // optional
  EXPECT_NO_THROW(check(p));
}

TEST(ProblemRules, RowPitch) {
  MmFp8LoraArgs p = valid(64, 128, 256);
  p.lda = 256;
  p.ldb = 272;
  EXPECT_NO_THROW(check(p));
  p.lda = 240;
  EXPECT_RULE(check(p), "a's row pitch must be >= K (got lda=240, K=256)");
  p.lda = 264;
  EXPECT_RULE(check(p), "a's row pitch must be a multiple of 16 bytes (got 264 bytes)");
  p.lda = 0;
  p.ldb = 200;
  EXPECT_RULE(check(p), "b's row pitch must be >= K");
  p.ldb = 280;
  EXPECT_RULE(check(p), "b's row pitch must be a multiple of 16 bytes (got 280 bytes)");
}

TEST(ProblemRules, TmaAlignment) {
  for (int offset : {1, 2, 8}) {
    MmFp8LoraArgs p = valid();
    p.a = reinterpret_cast<const __nv_fp8_e4m3*>(reinterpret_cast<const char*>(p.a) + offset);
    EXPECT_RULE(check(p), "a must be 16-byte aligned for the tensor-memory accelerator");
    p = valid();
    p.b = reinterpret_cast<const __nv_fp8_e4m3*>(reinterpret_cast<const char*>(p.b) + offset);
    EXPECT_RULE(check(p), "b must be 16-byte aligned");
    p = valid();
    p.d = reinterpret_cast<const __nv_bfloat16*>(reinterpret_cast<const char*>(p.d) + offset);
    EXPECT_RULE(check(p), "d must be 16-byte aligned");
    p = valid();
    p.lora_b = reinterpret_cast<const __nv_bfloat16*>(reinterpret_cast<const char*>(p.lora_b) + offset);
    EXPECT_RULE(check(p), "lora_b must be 16-byte aligned");
    p = valid();
    p.out = reinterpret_cast<__nv_bfloat16*>(reinterpret_cast<char*>(p.out) + offset);
    EXPECT_RULE(check(p), "out must be 16-byte aligned");
  }
  MmFp8LoraArgs p = valid();
  p.a = reinterpret_cast<const __nv_fp8_e4m3*>(reinterpret_cast<const char*>(p.a) + 16);
  p.out = reinterpret_cast<__nv_bfloat16*>(reinterpret_cast<char*>(p.out) + 48);
  EXPECT_NO_THROW(check(p));
  p = valid();
  p.bias = reinterpret_cast<const __nv_bfloat16*>(reinterpret_cast<const char*>(p.bias) + 2);
  EXPECT_NO_THROW(check(p)) << "bias is read element-wise, not through TMA";
  p.bias = reinterpret_cast<const __nv_bfloat16*>(reinterpret_cast<const char*>(p.bias) + 1);
  EXPECT_RULE(check(p), "bias must be 2-byte aligned");
}

TEST(ProblemRules, OutOverlapsNoInput) {
  const MmFp8LoraArgs base = valid(64, 128, 256, 64);
  const int64_t out_bytes = 64 * 128 * 2;
  struct Case {
    const char* name;
    const void* start;
    int64_t bytes;
  } inputs[] = {{"a", base.a, 64 * 256},           {"b", base.b, 128 * 256},
                {"d", base.d, 64 * 64 * 2},        {"lora_b", base.lora_b, 128 * 64 * 2},
                {"bias", base.bias, 128 * 2},      {"a_scale", base.a_scale, 4}};
  for (const Case& c : inputs) {
    const auto start = reinterpret_cast<uintptr_t>(c.start);
    MmFp8LoraArgs p = base;
    // Last byte of out on the first byte of the input: overlap.
    p.out = reinterpret_cast<__nv_bfloat16*>(start - out_bytes + 16);
    EXPECT_RULE(check(p), std::string("out must not overlap any input (it overlaps ") + c.name);
    // out ends right where the input starts: no overlap.
    p.out = reinterpret_cast<__nv_bfloat16*>(start - out_bytes);
    EXPECT_NO_THROW(check(p)) << c.name;
    // out starts right after the input ends (rounded up to 16 bytes): no overlap.
    p.out = reinterpret_cast<__nv_bfloat16*>((start + c.bytes + 15) / 16 * 16);
    EXPECT_NO_THROW(check(p)) << c.name;
  }
  MmFp8LoraArgs p = base;  // adapter off: out may alias the unused d
  p.lora_scale = nullptr;
  p.out = const_cast<__nv_bfloat16*>(p.d);
  EXPECT_NO_THROW(check(p));
}

// -------------------------------------------------------------------- tensors

TensorDesc tensor(DType dtype, std::initializer_list<int64_t> shape, uintptr_t data, int device = 0) {
  TensorDesc t;
  t.data = addr(data);
  t.dtype = dtype;
  t.dtype_label = cake::dtype_name(dtype);
  t.ndim = static_cast<int>(shape.size());
  int i = 0;
  for (int64_t s : shape) t.shape[i++] = s;
  int64_t stride = 1;
  for (int j = t.ndim - 1; j >= 0; --j) t.strides[j] = stride, stride *= t.shape[j];
  t.on_cuda = true;
  t.device = device;
  t.device_label = "cuda:" + std::to_string(device);
  return t;
}

cake::MmTensors valid_tensors(int64_t M = 64, int64_t N = 128, int64_t K = 256, int64_t r = 32) {
  cake::MmTensors t;
  t.a = tensor(DType::kFloat8E4M3, {M, K}, 0x1000000000);
  t.b = tensor(DType::kFloat8E4M3, {N, K}, 0x2000000000);
  t.a_scale = tensor(DType::kFloat32, {1}, 0x3000000000);
  t.b_scale = tensor(DType::kFloat32, {}, 0x3000000100);
  t.lora_scale = tensor(DType::kFloat32, {1, 1}, 0x3000000200);
  t.d = tensor(DType::kBFloat16, {M, r}, 0x4000000000);
  t.lora_b = tensor(DType::kBFloat16, {N, r}, 0x5000000000);
  t.bias = tensor(DType::kBFloat16, {N}, 0x6000000000);
  t.out = tensor(DType::kBFloat16, {M, N}, 0x7000000000);
  return t;
}

void check(const cake::MmTensors& t) { cake::check_tensors("mm_fp8_lora", t); }

TEST(TensorRules, ValidCallProducesTheArgs) {
  const cake::CheckedTensors c = cake::check_tensors("mm_fp8_lora", valid_tensors(64, 128, 256, 32));
  EXPECT_EQ(c.args.M, 64);
  EXPECT_EQ(c.args.N, 128);
  EXPECT_EQ(c.args.K, 256);
  EXPECT_EQ(c.args.r, 32);
  EXPECT_EQ(c.args.lda, 256);
  EXPECT_EQ(c.device, 0);
  EXPECT_NO_THROW(cake::check_problem("mm_fp8_lora", c.args, Arch::SM90));
}

TEST(TensorRules, Dtypes) {
  auto t = valid_tensors();
  t.a.dtype = DType::kBFloat16, t.a.dtype_label = "bfloat16";
  EXPECT_RULE(check(t), "mm_fp8_lora: a must be float8_e4m3fn (got bfloat16)");
  t = valid_tensors();
  t.b.dtype = DType::kOther, t.b.dtype_label = "float8_e5m2";
  EXPECT_RULE(check(t), "b must be float8_e4m3fn (got float8_e5m2)");
  t = valid_tensors();
  t.a_scale.dtype = DType::kBFloat16, t.a_scale.dtype_label = "bfloat16";
  EXPECT_RULE(check(t), "a_scale must be float32 (got bfloat16)");
  t = valid_tensors();
  t.lora_scale->dtype = DType::kOther, t.lora_scale->dtype_label = "float64";
  EXPECT_RULE(check(t), "lora_scale must be float32 (got float64)");
  t = valid_tensors();
  t.d->dtype = DType::kOther, t.d->dtype_label = "float16";
  EXPECT_RULE(check(t), "d must be bfloat16 (got float16)");
  t = valid_tensors();
  t.lora_b->dtype = DType::kFloat32, t.lora_b->dtype_label = "float32";
  EXPECT_RULE(check(t), "lora_b must be bfloat16 (got float32)");
  t = valid_tensors();
  t.bias->dtype = DType::kFloat32, t.bias->dtype_label = "float32";
  EXPECT_RULE(check(t), "bias must be bfloat16 (got float32)");
  t = valid_tensors();
  t.out.dtype = DType::kOther, t.out.dtype_label = "float16";
  EXPECT_RULE(check(t), "out must be bfloat16 (got float16)");
}

TEST(TensorRules, Ranks) {
  auto t = valid_tensors();
  t.a = tensor(DType::kFloat8E4M3, {1, 64, 256}, 0x1000000000);
  EXPECT_RULE(check(t), "a must be 2-D [M, K] (got 3-D [1, 64, 256])");
  t = valid_tensors();
  t.b = tensor(DType::kFloat8E4M3, {128 * 256}, 0x2000000000);
  EXPECT_RULE(check(t), "b must be 2-D [N, K] (got 1-D");
  t = valid_tensors();
  t.d = tensor(DType::kBFloat16, {64, 32, 1}, 0x4000000000);
  EXPECT_RULE(check(t), "d must be 2-D [M, r]");
  t = valid_tensors();
  t.bias = tensor(DType::kBFloat16, {1, 128}, 0x6000000000);
  EXPECT_RULE(check(t), "bias must be 1-D [N]");
  t = valid_tensors();
  t.out = tensor(DType::kBFloat16, {64 * 128}, 0x7000000000);
  EXPECT_RULE(check(t), "out must be 2-D [M, N]");
}

TEST(TensorRules, Devices) {
  auto t = valid_tensors();
  t.a.on_cuda = false, t.a.device_label = "cpu";
  EXPECT_RULE(check(t), "a must be on a CUDA device (got cpu)");
  t = valid_tensors();
  t.b.device = 1, t.b.device_label = "cuda:1";
  EXPECT_RULE(check(t), "b must be on the same device as a (cuda:0) (got cuda:1)");
  t = valid_tensors();
  t.lora_scale->on_cuda = false, t.lora_scale->device_label = "cpu";
  EXPECT_RULE(check(t), "lora_scale must be on a CUDA device (got cpu)");
  t = valid_tensors();
  t.out.device = 2, t.out.device_label = "cuda:2";
  EXPECT_RULE(check(t), "out must be on the same device as a");
  t = valid_tensors();
  t.bias->device = 1, t.bias->device_label = "cuda:1";
  EXPECT_RULE(check(t), "bias must be on the same device as a");
}

// A binding may describe tensors without names (the Python binding does until a
// rule fails); the messages then name what cake knows.
TEST(TensorRules, MessagesWithoutTheBindingsNames) {
  auto unnamed = [] {
    auto t = valid_tensors();
    for (TensorDesc* x : {&t.a, &t.b, &t.a_scale, &t.b_scale, &*t.lora_scale, &*t.d, &*t.lora_b, &*t.bias, &t.out})
      x->dtype_label.clear(), x->device_label.clear();
    return t;
  };
  auto t = unnamed();
  t.a.dtype = DType::kBFloat16;
  EXPECT_RULE(check(t), "a must be float8_e4m3fn (got bfloat16)");
  t = unnamed();
  t.b.dtype = DType::kOther;
  EXPECT_RULE(check(t), "b must be float8_e4m3fn (got another dtype)");
  t = unnamed();
  t.a.on_cuda = false;
  EXPECT_RULE(check(t), "a must be on a CUDA device (got a device that is not CUDA)");
  t = unnamed();
  t.b.device = 1;
  EXPECT_RULE(check(t), "b must be on the same device as a (cuda:0) (got cuda:1)");
}

TEST(TensorRules, ShapesAgree) {
  auto t = valid_tensors();
  t.b = tensor(DType::kFloat8E4M3, {128, 272}, 0x2000000000);
  EXPECT_RULE(check(t), "b must be [N, K] with the K of a (got a [64, 256], b [128, 272])");
  t = valid_tensors();
  t.d = tensor(DType::kBFloat16, {65, 32}, 0x4000000000);
  EXPECT_RULE(check(t), "d must be [M, r] with the M of a (got d [65, 32], M=64)");
  t = valid_tensors();
  t.lora_b = tensor(DType::kBFloat16, {32, 128}, 0x5000000000);
  EXPECT_RULE(check(t), "lora_b must be [N, r] with the N of b and the r of d");
  t = valid_tensors();
  t.lora_b = tensor(DType::kBFloat16, {128, 64}, 0x5000000000);
  EXPECT_RULE(check(t), "lora_b must be [N, r]");
  t = valid_tensors();
  t.bias = tensor(DType::kBFloat16, {136}, 0x6000000000);
  EXPECT_RULE(check(t), "bias must be [N] = [128] (got [136])");
  t = valid_tensors();
  t.out = tensor(DType::kBFloat16, {64, 136}, 0x7000000000);
  EXPECT_RULE(check(t), "out must be [M, N] = [64, 128] (got [64, 136])");
}

TEST(TensorRules, ScalarsHaveOneElement) {
  auto t = valid_tensors();
  t.a_scale = tensor(DType::kFloat32, {2}, 0x3000000000);
  EXPECT_RULE(check(t), "a_scale must be a one-element fp32 tensor (got shape [2])");
  t = valid_tensors();
  t.b_scale = tensor(DType::kFloat32, {0}, 0x3000000100);
  EXPECT_RULE(check(t), "b_scale must be a one-element fp32 tensor (got shape [0])");
  t = valid_tensors();
  t.lora_scale = tensor(DType::kFloat32, {1, 2}, 0x3000000200);
  EXPECT_RULE(check(t), "lora_scale must be a one-element fp32 tensor");
}

TEST(TensorRules, Layouts) {
  auto t = valid_tensors();
  t.a.strides[0] = 1, t.a.strides[1] = 64;  // column-major
  EXPECT_RULE(check(t), "a must be row-major with unit inner stride (got strides (1, 64))");
  t = valid_tensors();
  t.b.strides[0] = 128;  // rows overlap
  EXPECT_RULE(check(t), "b must be row-major with rows at least 256 elements apart");
  t = valid_tensors();
  t.a.strides[0] = 512;  // padded rows are fine
  EXPECT_EQ(cake::check_tensors("x", t).args.lda, 512);
  t = valid_tensors();
  t.d->strides[0] = 64;
  EXPECT_RULE(check(t), "d must be contiguous");
  t = valid_tensors();
  t.lora_b->strides[0] = 1, t.lora_b->strides[1] = 128;
  EXPECT_RULE(check(t), "lora_b must be contiguous");
  t = valid_tensors();
  t.bias->strides[0] = 2;
  EXPECT_RULE(check(t), "bias must be contiguous");
  t = valid_tensors();
  t.out.strides[0] = 256;
  EXPECT_RULE(check(t), "out must be contiguous");
}

TEST(TensorRules, LoraScaleRequiresTheFactors) {
  auto t = valid_tensors();
  t.d.reset();
  EXPECT_RULE(check(t), "lora_scale was given, so d and lora_b are required (got d=None)");
  t = valid_tensors();
  t.lora_b.reset();
  EXPECT_RULE(check(t), "(got lora_b=None)");
}

TEST(TensorRules, NoLoraScaleIgnoresTheFactors) {
  auto t = valid_tensors();
  t.lora_scale.reset();
  t.d->dtype = DType::kOther;  // garbage, never looked at
  t.lora_b = tensor(DType::kFloat32, {7}, 0x1);
  const cake::CheckedTensors c = cake::check_tensors("mm_fp8_lora", t);
  EXPECT_EQ(c.args.lora_scale, nullptr);
  EXPECT_EQ(c.args.d, nullptr);
  EXPECT_EQ(c.args.r, 0);
}

TEST(Options, Backend) {
  EXPECT_NO_THROW(cake::check_options("mm_fp8_lora", "cake", std::nullopt));
  EXPECT_NO_THROW(cake::check_options("mm_fp8_lora", "auto", std::nullopt));
  EXPECT_RULE(cake::check_options("mm_fp8_lora", "cublas", std::nullopt),
              "backend must be \"cake\" or \"auto\" (got \"cublas\")");
  EXPECT_RULE(cake::check_options("mm_fp8_lora", "", std::nullopt), "(got \"\")");
}

TEST(Options, EnablePdl) {
  EXPECT_NO_THROW(cake::check_options("mm_fp8_lora", "cake", true));
  EXPECT_RULE(cake::check_options("mm_fp8_lora", "cake", false), "enable_pdl must be None or True");
}

}  // namespace
