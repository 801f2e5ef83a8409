// The C++ entry points on a real SM90 device, against an fp64 reference computed
// on the host. Small shapes, so that the whole file also runs under
// compute-sanitizer (memcheck, racecheck, synccheck) in scripts/gpu-check.
// Without an SM90 device every test is skipped with the reason.
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cake/gemm.h"

namespace {

bool have_sm90() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) return false;
  int major = 0, minor = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
  return major == 9 && minor == 0;
}

#define REQUIRE_SM90()                                                                      \
  if (!have_sm90()) GTEST_SKIP() << "no SM90 GPU on this machine: the GPU tests run on an " \
                                    "H100/H200 (scripts/gpu-check)"

#define CUDA_OK(x) ASSERT_EQ((x), cudaSuccess) << #x

template <typename T>
struct DeviceBuffer {
  T* ptr = nullptr;
  size_t n = 0;
  explicit DeviceBuffer(const std::vector<T>& host) : n(host.size()) {
    if (cudaMalloc(&ptr, n * sizeof(T)) != cudaSuccess) throw std::bad_alloc();
    cudaMemcpy(ptr, host.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  }
  explicit DeviceBuffer(size_t count) : n(count) {
    if (cudaMalloc(&ptr, n * sizeof(T)) != cudaSuccess) throw std::bad_alloc();
  }
  ~DeviceBuffer() { cudaFree(ptr); }
  std::vector<T> to_host() const {
    std::vector<T> h(n);
    cudaMemcpy(h.data(), ptr, n * sizeof(T), cudaMemcpyDeviceToHost);
    return h;
  }
};

struct Problem {
  int64_t M, N, K, r;
  bool bias;
  std::vector<__nv_fp8_e4m3> a, b;
  std::vector<__nv_bfloat16> d, lora_b, bias_v;
  float a_scale, b_scale, lora_scale;

  Problem(int64_t M_, int64_t N_, int64_t K_, int64_t r_, bool bias_, unsigned seed)
      : M(M_), N(N_), K(K_), r(r_), bias(bias_) {
    std::mt19937 gen(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::uniform_real_distribution<float> uni(0.5f, 1.5f);
    a.resize(M * K);
    b.resize(N * K);
    for (auto& x : a) x = __nv_fp8_e4m3(2.0f * normal(gen));
    for (auto& x : b) x = __nv_fp8_e4m3(2.0f * normal(gen));
    a_scale = uni(gen) / std::sqrt(static_cast<float>(K));
    b_scale = 0.25f * uni(gen);
    if (r) {
      d.resize(M * r);
      lora_b.resize(N * r);
      for (auto& x : d) x = __float2bfloat16(normal(gen));
      for (auto& x : lora_b) x = __float2bfloat16(normal(gen));
      lora_scale = 0.75f * uni(gen) / std::sqrt(static_cast<float>(r));
    }
    if (bias) {
      bias_v.resize(N);
      for (auto& x : bias_v) x = __float2bfloat16(0.5f * normal(gen));
    }
  }

  std::vector<double> reference() const {
    std::vector<double> ref(M * N);
    const double alpha = static_cast<double>(a_scale * b_scale);
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        double base = 0, corr = 0;
        for (int64_t k = 0; k < K; ++k)
          base += static_cast<double>(float(a[m * K + k])) * static_cast<double>(float(b[n * K + k]));
        for (int64_t j = 0; j < r; ++j)
          corr += static_cast<double>(__bfloat162float(d[m * r + j])) *
                  static_cast<double>(__bfloat162float(lora_b[n * r + j]));
        double v = alpha * base + (r ? static_cast<double>(lora_scale) * corr : 0.0);
        if (bias) v += static_cast<double>(__bfloat162float(bias_v[n]));
        ref[m * N + n] = v;
      }
    return ref;
  }
};

struct Launch {
  DeviceBuffer<__nv_fp8_e4m3> a, b;
  DeviceBuffer<__nv_bfloat16> d, lora_b, bias, out;
  DeviceBuffer<float> scales;  // a_scale, b_scale, lora_scale, +0, -0
  explicit Launch(const Problem& p)
      : a(p.a), b(p.b), d(p.r ? p.d : std::vector<__nv_bfloat16>(1)),
        lora_b(p.r ? p.lora_b : std::vector<__nv_bfloat16>(1)),
        bias(p.bias ? p.bias_v : std::vector<__nv_bfloat16>(1)), out(p.M * p.N),
        scales(std::vector<float>{p.a_scale, p.b_scale, p.lora_scale, 0.0f, -0.0f}) {}

  cake::MmFp8LoraArgs args(const Problem& p, const float* lora_scale) const {
    cake::MmFp8LoraArgs x;
    x.M = p.M, x.N = p.N, x.K = p.K;
    x.a = a.ptr, x.b = b.ptr;
    x.a_scale = scales.ptr, x.b_scale = scales.ptr + 1;
    x.lora_scale = lora_scale;
    x.d = d.ptr, x.lora_b = lora_b.ptr, x.r = p.r;
    x.bias = p.bias ? bias.ptr : nullptr;
    x.out = out.ptr;
    return x;
  }
  const float* lora_scale() const { return scales.ptr + 2; }
  const float* zero(bool negative) const { return scales.ptr + (negative ? 4 : 3); }

  std::vector<__nv_bfloat16> run(const cake::MmFp8LoraArgs& x) {
    cudaMemset(out.ptr, 0xFF, out.n * sizeof(__nv_bfloat16));  // NaN poison
    cake::mm_fp8_lora(x, nullptr);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    return out.to_host();
  }
};

double bf16_ulp(double x) {
  int e = 0;
  std::frexp(std::max(std::fabs(x), 1e-30), &e);
  return std::ldexp(1.0, e - 8);
}

void expect_close(const std::vector<__nv_bfloat16>& out, const std::vector<double>& ref) {
  double sq = 0;
  for (double v : ref) sq += v * v;
  const double rms = std::sqrt(sq / ref.size());
  size_t bad = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    const double got = __bfloat162float(out[i]);
    const double bound = bf16_ulp(ref[i]) + 1e-3 * rms;
    if (!(std::fabs(got - ref[i]) <= bound) && bad++ < 5)
      ADD_FAILURE() << "element " << i << ": got " << got << ", want " << ref[i] << " (bound " << bound
                    << ")";
  }
  EXPECT_EQ(bad, 0u) << "elements outside one bf16 ulp + 1e-3 rms";
}

struct Shape {
  int64_t M, N, K, r;
  bool bias;
};

class GpuShapes : public ::testing::TestWithParam<Shape> {};

TEST_P(GpuShapes, MatchesFp64Reference) {
  REQUIRE_SM90();
  const Shape s = GetParam();
  Problem p(s.M, s.N, s.K, s.r, s.bias, static_cast<unsigned>(s.M * 31 + s.N * 7 + s.K + s.r));
  Launch l(p);
  expect_close(l.run(l.args(p, s.r ? l.lora_scale() : nullptr)), p.reference());
}

// Both programs (M <= 64 swaps A and B), tails in M, N and K, every rank.
INSTANTIATE_TEST_SUITE_P(Sm90, GpuShapes,
                         ::testing::Values(Shape{1, 8, 16, 32, true}, Shape{7, 24, 48, 64, false},
                                           Shape{64, 200, 272, 128, true},
                                           Shape{65, 136, 272, 128, true},
                                           Shape{129, 264, 1040, 32, false},
                                           Shape{300, 136, 400, 64, true},
                                           Shape{2, 4104, 128, 0, true}),
                         [](const ::testing::TestParamInfo<Shape>& i) {
                           const Shape& s = i.param;
                           return "M" + std::to_string(s.M) + "_N" + std::to_string(s.N) + "_K" +
                                  std::to_string(s.K) + "_r" + std::to_string(s.r) +
                                  (s.bias ? "_bias" : "");
                         });

TEST(Gpu, ZeroAdapterIsBitwiseTheBase) {
  REQUIRE_SM90();
  for (int64_t M : {16, 130}) {
    Problem p(M, 136, 272, 64, true, 77);
    for (auto& x : p.d) x = __float2bfloat16(NAN);
    Launch l(p);
    const auto base = l.run(l.args(p, nullptr));
    for (bool negative : {false, true}) {
      const auto zero = l.run(l.args(p, l.zero(negative)));
      EXPECT_EQ(std::memcmp(base.data(), zero.data(), base.size() * 2), 0) << "M=" << M;
    }
    cake::MmFp8LoraArgs x = l.args(p, l.lora_scale());
    cudaMemset(l.out.ptr, 0xFF, l.out.n * 2);
    cake::mm_fp8(x, nullptr);  // the adapter fields are ignored
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto fp8_only = l.out.to_host();
    EXPECT_EQ(std::memcmp(base.data(), fp8_only.data(), base.size() * 2), 0) << "M=" << M;
  }
}

TEST(Gpu, Deterministic) {
  REQUIRE_SM90();
  Problem p(200, 264, 2064, 128, true, 5);
  Launch l(p);
  const auto first = l.run(l.args(p, l.lora_scale()));
  const auto second = l.run(l.args(p, l.lora_scale()));
  EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size() * 2), 0);
}

TEST(Gpu, RejectsBeforeLaunching) {
  REQUIRE_SM90();
  Problem p(64, 136, 272, 32, false, 3);
  Launch l(p);
  cudaMemset(l.out.ptr, 0, l.out.n * 2);
  cake::MmFp8LoraArgs x = l.args(p, l.lora_scale());
  x.K = 24;
  EXPECT_THROW(cake::mm_fp8_lora(x, nullptr), cake::InvalidArgument);
  x = l.args(p, l.lora_scale());
  x.r = 48;
  EXPECT_THROW(cake::mm_fp8_lora(x, nullptr), cake::InvalidArgument);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (const auto& v : l.out.to_host()) ASSERT_EQ(__bfloat162float(v), 0.0f);
}

}  // namespace
