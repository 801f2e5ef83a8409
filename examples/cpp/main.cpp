// One call of cake::mm_fp8_lora from C++, checked against a host reference.
//
//   out = a_scale * b_scale * (a @ b^T) + lora_scale * (d @ lora_b^T) + bias   -> bf16
#include <cake/gemm.h>
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#define CHECK(x)                                                            \
  do {                                                                      \
    cudaError_t e = (x);                                                    \
    if (e != cudaSuccess) {                                                 \
      std::printf("%s failed: %s\n", #x, cudaGetErrorString(e));            \
      return 1;                                                             \
    }                                                                       \
  } while (0)

template <typename T>
T* upload(const std::vector<T>& host) {
  T* p = nullptr;
  cudaMalloc(reinterpret_cast<void**>(&p), host.size() * sizeof(T));
  cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return p;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA GPU: this example needs an SM90 GPU (H100 / H200)\n");
    return 1;
  }
  const int64_t M = 16, N = 512, K = 1024, r = 64;
  std::mt19937 gen(0);
  std::normal_distribution<float> normal;
  std::vector<__nv_fp8_e4m3> a(M * K), b(N * K);
  std::vector<__nv_bfloat16> d(M * r), lora_b(N * r), bias(N);
  for (auto& x : a) x = __nv_fp8_e4m3(2.0f * normal(gen));
  for (auto& x : b) x = __nv_fp8_e4m3(2.0f * normal(gen));
  for (auto& x : d) x = __float2bfloat16(normal(gen));
  for (auto& x : lora_b) x = __float2bfloat16(normal(gen));
  for (auto& x : bias) x = __float2bfloat16(normal(gen));
  const std::vector<float> scalars = {0.03f, 0.25f, 0.125f};  // a_scale, b_scale, lora_scale

  cake::MmFp8LoraArgs args;
  args.M = M, args.N = N, args.K = K, args.r = r;
  args.a = upload(a), args.b = upload(b);
  float* s = upload(scalars);
  args.a_scale = s, args.b_scale = s + 1, args.lora_scale = s + 2;
  args.d = upload(d), args.lora_b = upload(lora_b), args.bias = upload(bias);
  __nv_bfloat16* out = nullptr;
  CHECK(cudaMalloc(reinterpret_cast<void**>(&out), M * N * sizeof(__nv_bfloat16)));
  args.out = out;

  std::printf("plan: %s\n", cake::program_name(cake::plan_for(args).program));
  try {
    cake::mm_fp8_lora(args, /*stream=*/nullptr);
  } catch (const std::exception& e) {  // cake::InvalidArgument, UnsupportedArchitecture, CudaError
    std::printf("cake: %s\n", e.what());
    return 1;
  }
  CHECK(cudaDeviceSynchronize());
  std::vector<__nv_bfloat16> got(M * N);
  CHECK(cudaMemcpy(got.data(), out, got.size() * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost));

  double worst = 0;
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      double base = 0, corr = 0;
      for (int64_t k = 0; k < K; ++k) base += double(float(a[m * K + k])) * double(float(b[n * K + k]));
      for (int64_t j = 0; j < r; ++j)
        corr += double(__bfloat162float(d[m * r + j])) * double(__bfloat162float(lora_b[n * r + j]));
      const double want = double(scalars[0] * scalars[1]) * base + scalars[2] * corr + __bfloat162float(bias[n]);
      worst = std::max(worst, std::fabs(__bfloat162float(got[m * N + n]) - want) / (std::fabs(want) + 1e-2));
    }
  std::printf("out[0][0..3] = %.4f %.4f %.4f %.4f; worst relative error %.2e (bf16 rounding is ~4e-3)\n",
              __bfloat162float(got[0]), __bfloat162float(got[1]), __bfloat162float(got[2]),
              __bfloat162float(got[3]), worst);
  return worst < 1e-2 ? 0 : 1;
}
