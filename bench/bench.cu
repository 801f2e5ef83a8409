// cake against cuBLASLt, side by side, on the same inputs in one process.
//
// For each shape: cake mm_fp8_lora with the adapter on (each r) and with
// lora_scale = 0; cuBLASLt FP8 (per-tensor scales, bf16 out) base only, with and
// without fast accumulation; and the best unfused path a user has today, that
// GEMM followed by a cuBLASLt bf16 GEMM out += s * d @ lora_b^T (beta = 1).
// Both cake variants are checked against the unfused fp32 result.
//
// With --cutlass, CUTLASS's own FP8 GEMM joins them as a third reference
// (cutlass_reference.h): per shape, its fastest configuration promoted every 128 K
// and its fastest with fast accumulation, base only, both timed in the same rounds.
//
// Timing (Timer): per shape and r, the five variants (seven with --cutlass) are each captured as a CUDA
// graph of many calls and replayed interleaved, one replay of each per round, and
// timed with events after 100 ms of untimed rounds (--warmup); median of the rounds.
// Inputs rotate among enough buffer sets that the working set exceeds twice the L2,
// so weights never come from cache.
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cake/gemm.h"
#include "cuda_check.h"
#include "cutlass_reference.h"
#include "forced.h"
#include "launch/device.h"
#include "shapes.h"
#include "sm90/launch.h"
#include "sm90/programs.h"
#include "sm90/run_program.h"

namespace {

// A number for bench.json: null where it is not finite (a ceiling or floor that
// --no-ceilings skipped), so that every reader's JSON parser takes the file.
std::string json_num(double v) {
  if (!std::isfinite(v)) return "null";
  std::ostringstream s;
  s << v;
  return s.str();
}

#define LT(x)                                                                          \
  do {                                                                                 \
    cublasStatus_t s_ = (x);                                                           \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                 \
      std::fprintf(stderr, "%s:%d: %s: cublas status %d\n", __FILE__, __LINE__, #x, s_); \
      std::exit(2);                                                                    \
    }                                                                                  \
  } while (0)

// ------------------------------------------------------------------ device helpers

__device__ float hash_uniform(uint64_t i, uint64_t seed) {
  uint64_t x = i * 0x9E3779B97F4A7C15ull + seed * 0xD1B54A32D192ED03ull;
  x ^= x >> 31, x *= 0x7FB5D329728EA185ull, x ^= x >> 27, x *= 0x81DADEF4BC2DD44Dull, x ^= x >> 33;
  return (x >> 40) * (1.0f / 16777216.0f);  // [0, 1)
}

__global__ void fill_fp8(__nv_fp8_e4m3* p, size_t n, uint64_t seed, float amp) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = __nv_fp8_e4m3(amp * (hash_uniform(i, seed) - 0.5f));
}

__global__ void widen(const __nv_fp8_e4m3* src, __nv_bfloat16* dst, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    dst[i] = __float2bfloat16(float(src[i]));  // every e4m3 value is a bf16 value
}

__global__ void copy_kernel(const int4* __restrict__ src, int4* __restrict__ dst, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    dst[i] = src[i];
}

__global__ void fill_bf16(__nv_bfloat16* p, size_t n, uint64_t seed, float amp) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = __float2bfloat16(amp * (hash_uniform(i, seed) - 0.5f));
}

// ref[m, n] += bias[n] (the fp32 reference of a call with a bias).
__global__ void add_bias(float* ref, const __nv_bfloat16* bias, size_t M, size_t N) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < M * N; i += size_t(gridDim.x) * blockDim.x)
    ref[i] += __bfloat162float(bias[i % N]);
}

// acc: [0] sum (out-ref)^2, [1] sum ref^2, [2] sum (bf16(ref)-ref)^2, [3] max |out-ref| (bits),
// [4] non-finite outputs.
__global__ void compare(const __nv_bfloat16* out, const float* ref, size_t n, double* acc) {
  double e = 0, r = 0, f = 0, mx = 0, bad = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const double o = __bfloat162float(out[i]), x = ref[i];
    const double rounded = __bfloat162float(__float2bfloat16(ref[i]));
    if (!isfinite(o)) bad += 1;
    e += (o - x) * (o - x), r += x * x, f += (rounded - x) * (rounded - x);
    mx = fmax(mx, fabs(o - x));
  }
  for (int off = 16; off; off >>= 1) {
    e += __shfl_down_sync(~0u, e, off), r += __shfl_down_sync(~0u, r, off);
    f += __shfl_down_sync(~0u, f, off), bad += __shfl_down_sync(~0u, bad, off);
    mx = fmax(mx, __shfl_down_sync(~0u, mx, off));
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&acc[0], e), atomicAdd(&acc[1], r), atomicAdd(&acc[2], f), atomicAdd(&acc[4], bad);
    atomicMax(reinterpret_cast<unsigned long long*>(&acc[3]), __double_as_longlong(mx));
  }
}

// ------------------------------------------------------------------ cuBLASLt

struct Lt {
  cublasLtHandle_t handle{};
  void* workspace = nullptr;
  size_t workspace_bytes = 64ull << 20;
  Lt() {
    LT(cublasLtCreate(&handle));
    CK(cudaMalloc(&workspace, workspace_bytes));
  }
  ~Lt() {
    cudaFree(workspace);
    cublasLtDestroy(handle);
  }
};

// --sms: the SMs every variant may use (0: all). cake plans for them
// (cake::set_num_sms); cuBLASLt is told to target them (SM_COUNT_TARGET).
int g_sms = 0;

// One cuBLASLt GEMM in cake's orientation: D[M,N] (row-major) = alpha * A[M,k] B[N,k]^T + beta*C,
// expressed column-major as D^T = B A^T ("TN", the layout FP8 requires).
struct LtGemm {
  Lt* lt;
  std::string what;
  cublasLtMatmulDesc_t op{};
  cublasLtMatrixLayout_t la{}, lb{}, lc{};
  std::vector<cublasLtMatmulHeuristicResult_t> algos;
  size_t chosen = 0;

  // bias: a bf16 [N] vector added by cuBLASLt's BIAS epilogue (one per output
  // column of cake's D, i.e. per row of cuBLASLt's column-major D^T).
  LtGemm(Lt* l, int64_t M, int64_t N, int64_t k, cudaDataType in, cudaDataType out, bool fast_accum,
         const float* scale_a = nullptr, const float* scale_b = nullptr, const __nv_bfloat16* bias = nullptr)
      : lt(l) {
    std::ostringstream w;
    w << (in == CUDA_R_8F_E4M3 ? "fp8" : "bf16") << (fast_accum ? "+fastacc" : "") << (bias ? "+bias" : "")
      << " -> " << (out == CUDA_R_32F ? "fp32" : "bf16") << " M=" << M << " N=" << N << " k=" << k;
    what = w.str();
    LT(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    const cublasOperation_t t = CUBLAS_OP_T, n = CUBLAS_OP_N;
    LT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t));
    LT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &n, sizeof n));
    if (in == CUDA_R_8F_E4M3) {
      const int8_t fast = fast_accum ? 1 : 0;
      LT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast));
      // Column-major A is cake's b, B is cake's a.
      LT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scale_b, sizeof scale_b));
      LT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &scale_a, sizeof scale_a));
    }
    if (g_sms > 0)
      LT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, &g_sms, sizeof g_sms));
    if (bias) {
      const cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
      const cudaDataType bias_type = CUDA_R_16BF;
      LT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof epilogue));
      LT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias));
      LT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bias_type, sizeof bias_type));
    }
    LT(cublasLtMatrixLayoutCreate(&la, in, k, N, k));
    LT(cublasLtMatrixLayoutCreate(&lb, in, k, M, k));
    LT(cublasLtMatrixLayoutCreate(&lc, out, N, M, N));
    cublasLtMatmulPreference_t pref{};
    LT(cublasLtMatmulPreferenceCreate(&pref));
    LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &lt->workspace_bytes,
                                            sizeof lt->workspace_bytes));
    algos.resize(8);
    int found = 0;
    LT(cublasLtMatmulAlgoGetHeuristic(lt->handle, op, la, lb, lc, lc, pref, int(algos.size()), algos.data(), &found));
    algos.resize(found);
    cublasLtMatmulPreferenceDestroy(pref);
    if (algos.empty()) throw std::runtime_error("cuBLASLt has no algorithm for " + what);
  }
  ~LtGemm() {
    cublasLtMatrixLayoutDestroy(la), cublasLtMatrixLayoutDestroy(lb), cublasLtMatrixLayoutDestroy(lc);
    cublasLtMatmulDescDestroy(op);
  }
  // Runs the first heuristic candidate that the library accepts (checked on the
  // warm-up call, outside graph capture).
  void run(const void* a, const void* b, void* d, float alpha, float beta, cudaStream_t s) {
    for (;;) {
      const cublasStatus_t st = cublasLtMatmul(lt->handle, op, &alpha, b, la, a, lb, &beta, d, lc, d, lc,
                                               &algos[chosen].algo, lt->workspace, lt->workspace_bytes, s);
      if (st == CUBLAS_STATUS_SUCCESS) return;
      if (st == CUBLAS_STATUS_NOT_SUPPORTED && chosen + 1 < algos.size()) {
        ++chosen;
        continue;
      }
      throw std::runtime_error("cublasLtMatmul (" + what + ") failed with status " + std::to_string(int(st)) +
                               " after " + std::to_string(chosen + 1) + " of " + std::to_string(algos.size()) +
                               " candidate algorithms");
    }
  }
};

// ------------------------------------------------------------------ timing

// The variants of one shape are timed interleaved: each is captured once as a CUDA
// graph of `calls` calls, and the graphs are replayed in rounds, one replay of every
// variant per round, back to back with no host wait in between. So every variant
// sees the same board: the same clocks, power and temperature (at large shapes
// the board is at its power cap, and its clock drifts by several percent within a
// second of load; timed one after the other, whichever ran first had the cooler
// board). Rounds alternate the order, so that no variant always follows the same one.
struct Timer {
  cudaStream_t stream;
  int reps;           // timed replays (rounds) per variant
  bool once = false;  // profilers: each variant launched once, eagerly, untimed
  // Interleaved rounds run untimed until the board has carried this load for at
  // least warmup_ms. Under the power cap the clock falls for about 100 ms after load
  // starts, and the host's work before the rounds (new buffers, graph captures)
  // leaves the GPU idle: with two warm-up rounds a shape's first rank could be timed
  // while it fell, its variants not on the same clock (H200, M = 512, N = K = 8192,
  // r = 32: inside the grid the unfused path read 53.0 us against 59.3 for the FP8
  // GEMM it contains; as a process's first shape cake / cuBLASLt read 1.030-1.124
  // over six processes, four above 1.04, against 1.028-1.030 at its next rank; with
  // 100 ms, 1.031-1.032 over three). Longer warm-ups heat the board further and move
  // the ratios (300 ms, M = 64: 0.960 -> 0.987 of cuBLASLt, weight bandwidth 91% ->
  // 84% of copy), so the default stays near the clock's settling time.
  double warmup_ms = 100;

  // Median per-call time (us) of each fn over its replays; fn(i) makes call i.
  // --sustain S: after the interleaved rounds the first sustained->size() variants
  // are also replayed alone for sustain_s seconds each, their mean per-call times
  // written there: the board's clock under the power cap then follows that variant's
  // own power, not the mix's.
  std::vector<double> time(const std::vector<std::function<void(int)>>& fns, int calls, double sustain_s = 0,
                           std::vector<double>* sustained = nullptr) const {
    const size_t n = fns.size();
    for (const auto& fn : fns) fn(0);  // warm-up outside the graphs (module load, algorithm choice)
    CK(cudaStreamSynchronize(stream));
    if (once) return std::vector<double>(n, NAN);
    std::vector<cudaGraph_t> graphs(n, nullptr);
    std::vector<cudaGraphExec_t> execs(n, nullptr);
    for (size_t v = 0; v < n; ++v) {
      CK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
      bool captured = true;
      try {
        for (int i = 0; i < calls; ++i) fns[v](i);
      } catch (const std::exception& e) {
        captured = false;
        std::fprintf(stderr, "note: graph capture failed (%s); timing eager launches\n", e.what());
      }
      const cudaError_t end = cudaStreamEndCapture(stream, &graphs[v]);
      if (captured && end == cudaSuccess) CK(cudaGraphInstantiate(&execs[v], graphs[v], 0));
      else {
        cudaGetLastError();
        if (graphs[v]) cudaGraphDestroy(graphs[v]);
        graphs[v] = nullptr;
      }
    }
    auto replay = [&](size_t v) {
      if (execs[v]) CK(cudaGraphLaunch(execs[v], stream));
      else for (int i = 0; i < calls; ++i) fns[v](i);
    };
    auto order = [&](int round, size_t j) { return round % 2 == 0 ? j : n - 1 - j; };
    std::vector<cudaEvent_t> events(std::max<size_t>(2, 2 * n * reps));
    for (auto& e : events) CK(cudaEventCreate(&e));
    // Warm-up: one round sizes it, then enough rounds to fill warmup_ms, queued
    // without a host wait so that the timed rounds follow them on a busy board.
    CK(cudaEventRecord(events[0], stream));
    for (size_t j = 0; j < n; ++j) replay(order(0, j));
    CK(cudaEventRecord(events[1], stream));
    CK(cudaStreamSynchronize(stream));
    float round_ms = 0;
    CK(cudaEventElapsedTime(&round_ms, events[0], events[1]));
    const double more = std::ceil((warmup_ms - round_ms) / std::max(1e-3, double(round_ms)));
    const int warm_rounds = static_cast<int>(std::clamp(more, 1.0, 100000.0));
    for (int w = 1; w <= warm_rounds; ++w)
      for (size_t j = 0; j < n; ++j) replay(order(w, j));
    for (int round = 0; round < reps; ++round)
      for (size_t j = 0; j < n; ++j) {
        const size_t v = order(round, j);
        CK(cudaEventRecord(events[2 * (round * n + v)], stream));
        replay(v);
        CK(cudaEventRecord(events[2 * (round * n + v) + 1], stream));
      }
    CK(cudaStreamSynchronize(stream));
    std::vector<double> median(n);
    for (size_t v = 0; v < n; ++v) {
      std::vector<double> t;
      for (int round = 0; round < reps; ++round) {
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, events[2 * (round * n + v)], events[2 * (round * n + v) + 1]));
        t.push_back(ms * 1e3 / calls);
      }
      std::sort(t.begin(), t.end());
      median[v] = t[t.size() / 2];
    }
    // Sustained: one replay sizes the run, then that many replays back to back, timed
    // by events on the stream (no host sync between them, which would leave the GPU
    // idle and count the gaps).
    auto replays_timed = [&](size_t v, long count) {
      CK(cudaEventRecord(events[0], stream));
      for (long r = 0; r < count; ++r) replay(v);
      CK(cudaEventRecord(events[1], stream));
      CK(cudaStreamSynchronize(stream));
      float ms = 0;
      CK(cudaEventElapsedTime(&ms, events[0], events[1]));
      return double(ms);
    };
    for (size_t v = 0; sustain_s > 0 && sustained && v < std::min(sustained->size(), n); ++v) {
      const long count = std::max(1L, std::lround(sustain_s * 1e3 / replays_timed(v, 1)));
      (*sustained)[v] = replays_timed(v, count) * 1e3 / (double(count) * calls);
    }
    for (auto& e : events) cudaEventDestroy(e);
    for (size_t v = 0; v < n; ++v) {
      if (execs[v]) cudaGraphExecDestroy(execs[v]);
      if (graphs[v]) cudaGraphDestroy(graphs[v]);
    }
    return median;
  }
  double time(const std::function<void(int)>& fn, int calls) const { return time(std::vector{fn}, calls)[0]; }
};

template <typename T>
struct Buf {
  T* p = nullptr;
  size_t n = 0;
  Buf() = default;
  explicit Buf(size_t count) : n(count) { CK(cudaMalloc(&p, std::max<size_t>(1, n) * sizeof(T))); }
  Buf(Buf&& o) noexcept : p(o.p), n(o.n) { o.p = nullptr; }
  Buf& operator=(Buf&& o) noexcept { std::swap(p, o.p), std::swap(n, o.n); return *this; }
  ~Buf() { if (p) cudaFree(p); }
};

struct Scalars {
  float* base;
  float* a() const { return base; }
  float* b() const { return base + 64; }
  float* lora() const { return base + 128; }
  float* zero() const { return base + 192; }
  float* alpha() const { return base + 256; }  // a_scale * b_scale, for CUTLASS's epilogue
  void set(float a_scale, float b_scale, float lora_scale, cudaStream_t s) const {
    const float v[5] = {a_scale, b_scale, lora_scale, 0.0f, a_scale * b_scale};
    for (int i = 0; i < 5; ++i) CK(cudaMemcpyAsync(base + 64 * i, &v[i], sizeof(float), cudaMemcpyHostToDevice, s));
    CK(cudaStreamSynchronize(s));
  }
};

struct Set {
  Buf<__nv_fp8_e4m3> a, b;
  Buf<__nv_bfloat16> d, lora_b, out;
};

// Experiments (forced.h): a program, split, rows, promotion or multicast by hand.
cake::bench::Forcing g_forcing;

void run_cake(const cake::MmFp8LoraArgs& x, cudaStream_t stream) {
  if (!g_forcing.any()) return cake::mm_fp8_lora(x, stream);
  const int sms = cake::num_sms(0);
  cake::sm90::launch(g_forcing.plan(x.M, x.N, x.K, x.r, sms), x, sms, cake::device_info(0).dram_gbps, stream);
}

double geomean(const std::vector<double>& v) {
  if (v.empty()) return NAN;
  double s = 0;
  for (double x : v) s += std::log(x);
  return std::exp(s / v.size());
}

struct Row {
  int64_t M, N, K, r;
  double cake, cake0, base, base_nofast, unfused;  // us
  double check_ratio, check0_ratio, max_err;
  bool check_ok;
  double floor_us, bytes, flops;
  // --cutlass: the fastest configuration of each mode (NaN / empty without it)
  double cutlass = NAN, cutlass_fast = NAN;  // us
  std::string cutlass_config, cutlass_fast_config;
};

// CUTLASS's fastest configuration of one accumulation mode for one shape, chosen
// by timing every configuration that can run it at every raster swizzle.
struct CutlassChoice {
  const cake::bench::cutlass_ref::Config* config = nullptr;
  int swizzle = 1;
  double us = INFINITY;
  double check_ratio = NAN;
  std::string describe() const {
    return config ? std::string(config->name) + " / swizzle " + std::to_string(swizzle) : std::string("none");
  }
};

const char* regime(int64_t M) { return M <= 64 ? "M<=64" : (M <= 512 ? "128<=M<=512" : "M>=2048"); }

}  // namespace


int run_bench(int argc, char** argv) {
  using cake::bench::parse_list;
  cake::bench::ShapeSet shapes = cake::bench::grid_shapes();
  std::vector<int64_t>& Ms = shapes.Ms;
  std::vector<std::pair<int64_t, int64_t>>& NKs = shapes.NKs;
  std::vector<int64_t> Rs = {32, 64, 128};
  std::string out_dir = "results";
  int reps = 15;
  double warmup_ms = 100;
  bool ceilings = true, once = false, with_cutlass = false, with_bias = false;
  double sustain_s = 0;
  std::string timeline_file;  // --timeline: CAKE_TIMELINE builds (src/sm90/timeline.cuh)
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) { std::fprintf(stderr, "%s needs a value\n", arg.c_str()); std::exit(2); }
      return argv[++i];
    };
    if (arg == "--m") Ms = parse_list(next());
    else if (arg == "--nk") {
      NKs.clear();
      const auto v = parse_list(next());
      for (size_t j = 0; j + 1 < v.size(); j += 2) NKs.push_back({v[j], v[j + 1]});
    } else if (arg == "--shape") {
      const auto v = parse_list(next());
      Ms = {v.at(0)};
      NKs = {{v.at(1), v.at(2)}};
    } else if (arg == "--r") Rs = parse_list(next());
    else if (arg == "--quick") {
      shapes = cake::bench::quick_shapes();
      Rs = {128};
    } else if (arg == "--serving") {
      // Batch sizes past decode between the grid's points (shapes.h), r = 128.
      shapes = cake::bench::serving_shapes();
      Rs = {128};
    } else if (arg == "--reps") reps = std::stoi(next());
    else if (arg == "--warmup") warmup_ms = std::stod(next());
    else if (arg == "--out") out_dir = next();
    else if (arg == "--cutlass") with_cutlass = true;
    else if (arg == "--bias") with_bias = true;
    else if (arg == "--no-ceilings") ceilings = false;  // for profilers: only the grid's kernels run
    else if (arg == "--once") once = true;  // for profilers: one eager launch per variant, no timing
    else if (arg == "--timeline") timeline_file = next();
    else if (arg == "--sustain") sustain_s = std::stod(next());
    else if (arg == "--sms") g_sms = std::stoi(next());
    else if (g_forcing.parse(argc, argv, i)) continue;
    else if (arg == "--occupancy") {
      for (cake::Program p : cake::sm90::kPrograms) {
        std::printf("%s: resident clusters of 1 / 2 / 4 / 8:", cake::program_name(p));
        cake::sm90::with_shape(p, [](auto shape) {
          for (int split : {1, 2, 4, 8})
            std::printf(" %d", cake::sm90::max_active_clusters<decltype(shape)>(split));
        });
        std::printf("\n");
      }
      return 0;
    }
    else {
      std::string programs;
      for (cake::Program p : cake::sm90::kPrograms)
        programs += std::string(programs.empty() ? "" : "|") + cake::program_name(p);
      std::printf("usage: cake_bench [--quick | --serving] [--m 1,16,...] [--nk N,K,N,K...] [--shape M,N,K]\n"
                  "                  [--r 32,64,128]\n"
                  "                  [--reps 15] [--warmup 100] [--out results] [--cutlass] [--sustain S] [--bias] [--sms S]\n"
                  "             (--cutlass: CUTLASS's own FP8 GEMM timed beside cuBLASLt, both accumulation modes;\n"
                  "              --bias: every variant adds a bf16 bias [N]: cake's argument, cuBLASLt's BIAS epilogue\n"
                  "              (the unfused path's FP8 GEMM too); not with --cutlass, whose GEMM has no bias here;\n"
                  "              --sustain S: each variant also replayed alone for S seconds, its mean time printed;\n"
                  "              --sms S: cake and cuBLASLt use at most S SMs (cake.set_num_sms, cuBLASLt's\n"
                  "              SM_COUNT_TARGET); not with --cutlass; no ceilings, so floors print nan)\n"
                  "experiments: [--program %s]\n"
                  "             [--split S] [--rows R] [--promote 64|128] [--multicast 1|2|m|n] [--raster G] [--one-region] [--occupancy]\n"
                  "             [--no-ceilings] (skip the copy / cuBLASLt ceilings: floors print nan)\n"
                  "             [--once] (profilers: each variant launched once, in the order cuBLASLt fast,\n"
                  "                       cuBLASLt without fast accumulation, then cake; no timing)\n"
                  "             [--timeline FILE] (builds with -DCAKE_TIMELINE=ON: the last timed launch's\n"
                  "                       per-CTA timelines with the adapter on; scripts/timeline.py reads them)\n",
                  programs.c_str());
      return arg == "--help" ? 0 : 2;
    }
  }

  if (g_sms && with_cutlass) {
    std::fprintf(stderr, "cake_bench: --sms and --cutlass: the CUTLASS reference is not limited to S SMs here\n");
    return 2;
  }
  if (with_bias && with_cutlass) {
    std::fprintf(stderr, "cake_bench: --bias and --cutlass: the CUTLASS reference GEMM here has no bias epilogue\n");
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "cake_bench: no CUDA GPU on this machine; the benchmark needs an SM90 GPU.\n");
    return 1;
  }
  cudaDeviceProp prop{};
  CK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major != 9 || prop.minor != 0) {
    std::fprintf(stderr, "cake_bench: %s is compute capability %d.%d; cake's programs run on SM90.\n", prop.name,
                 prop.major, prop.minor);
    return 1;
  }
  if (g_sms) {
    try {
      cake::set_num_sms(0, g_sms);
    } catch (const cake::InvalidArgument& e) {
      std::fprintf(stderr, "cake_bench: --sms: %s\n", e.what());
      return 2;
    }
    ceilings = false;  // the copy and cuBLASLt ceilings are the whole device's
  }
#if CAKE_TIMELINE
  Buf<unsigned long long> timeline;
  if (!timeline_file.empty()) {
    timeline = Buf<unsigned long long>(cake::sm90::kTimelineWords);
    CK(cudaMemset(timeline.p, 0, timeline.n * sizeof(unsigned long long)));
    cake::sm90::g_timeline = timeline.p;
  }
#else
  if (!timeline_file.empty()) {
    std::fprintf(stderr, "cake_bench: --timeline needs a build configured with -DCAKE_TIMELINE=ON\n");
    return 2;
  }
#endif
  cudaStream_t stream;
  CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  Lt lt;
  Timer timer{stream, reps, once, warmup_ms};
  const double l2 = prop.l2CacheSize;

  // Scalars a_scale, b_scale, lora_scale, 0, a_scale * b_scale, each at its own 256-byte line
  // (cuBLASLt refuses scale pointers that are not 16-byte aligned).
  Buf<float> scalar_buf(5 * 64);
  const Scalars scales{scalar_buf.p};

  // ---- ceilings, measured here: copy bandwidth and the FP8 / BF16 tensor rates.
  double copy_TBps = NAN, fp8_TFLOPs = NAN, bf16_TFLOPs = NAN;
  if (ceilings) {
    const size_t bytes = 2ull << 30;
    Buf<char> src(bytes), dst(bytes);
    CK(cudaMemset(src.p, 1, bytes));
    const double us = timer.time([&](int) {
      copy_kernel<<<prop.multiProcessorCount * 8, 512, 0, stream>>>(reinterpret_cast<const int4*>(src.p),
                                                                    reinterpret_cast<int4*>(dst.p), bytes / 16);
    }, 3);
    copy_TBps = 2.0 * bytes / (us * 1e-6) / 1e12;
    const int64_t S = 8192;
    Buf<__nv_fp8_e4m3> a(S * S), b(S * S);
    Buf<__nv_bfloat16> ab(S * S), bb(S * S), c(S * S);
    fill_fp8<<<1024, 256, 0, stream>>>(a.p, a.n, 1, 4.0f);
    fill_fp8<<<1024, 256, 0, stream>>>(b.p, b.n, 2, 4.0f);
    fill_bf16<<<1024, 256, 0, stream>>>(ab.p, ab.n, 3, 2.0f);
    fill_bf16<<<1024, 256, 0, stream>>>(bb.p, bb.n, 4, 2.0f);
    scales.set(1.0f / 64, 0.25f, 0.1f, stream);
    LtGemm g8(&lt, S, S, S, CUDA_R_8F_E4M3, CUDA_R_16BF, true, scales.a(), scales.b());
    LtGemm g16(&lt, S, S, S, CUDA_R_16BF, CUDA_R_16BF, false);
    const double t8 = timer.time([&](int) { g8.run(a.p, b.p, c.p, 1.0f, 0.0f, stream); }, 5);
    const double t16 = timer.time([&](int) { g16.run(ab.p, bb.p, c.p, 1.0f, 0.0f, stream); }, 5);
    fp8_TFLOPs = 2.0 * S * S * S / (t8 * 1e-6) / 1e12;
    bf16_TFLOPs = 2.0 * S * S * S / (t16 * 1e-6) / 1e12;
  }
  std::printf("device: %s, %d SMs, L2 %.0f MiB, DRAM %d GB/s (memory clock x bus width, as cake plans for it)\n",
              prop.name, prop.multiProcessorCount, l2 / (1 << 20), cake::device_info(0).dram_gbps);
  if (g_sms) std::printf("every variant limited to %d SMs (--sms)\n", g_sms);
  std::printf("ceilings measured here: copy %.2f TB/s (read+write), cuBLASLt FP8 8192^3 %.0f TFLOP/s, BF16 %.0f TFLOP/s\n",
              copy_TBps, fp8_TFLOPs, bf16_TFLOPs);
  std::printf("timing: per shape and r, the variants' graphs replayed interleaved, %d timed rounds (median) after "
              "%.0f ms of untimed ones\n",
              reps, warmup_ms);
  std::printf("bias: %s\n\n", with_bias ? "every variant adds a bf16 bias [N] (cake's argument, cuBLASLt's BIAS epilogue)"
                                        : "none");

  std::vector<Row> rows;
  std::printf("%6s %6s %6s %4s | %9s %9s %9s %9s %9s | %7s %7s | %9s %9s %9s | %6s %6s\n", "M", "N", "K", "r", "cake",
              "cake s=0", "cuBLASLt", "noFastAcc", "unfused", "TFLOP/s", "GB/s", "cake/base", "cake/unf", "s0/base",
              "floor", "check");
  for (const auto& nk : NKs) {
    const int64_t N = nk.first, K = nk.second;
    for (int64_t M : Ms) {
      const int64_t rmax = *std::max_element(Rs.begin(), Rs.end());
      // Forced pairs that cannot lie that way here: the rows run the program's own pairing and say so.
      std::string fallback;
      if (g_forcing.any()) {
        // A sweep over shapes goes on past those the forced program cannot run.
        try {
          g_forcing.plan(M, N, K, rmax, cake::num_sms(0), &fallback);
        } catch (const cake::InvalidArgument& e) {
          std::printf("%6lld %6lld %6lld skipped: %s\n", static_cast<long long>(M), static_cast<long long>(N),
                      static_cast<long long>(K), e.what());
          continue;
        }
      }
      const double set_bytes = double(M) * K + double(N) * K + 2.0 * (M + N) * rmax + 2.0 * M * N;
      const int nsets = std::max<int>(2, int(std::ceil(2.0 * l2 / set_bytes)) + 1);
      std::vector<Set> sets(nsets);
      for (int s = 0; s < nsets; ++s) {
        sets[s].a = Buf<__nv_fp8_e4m3>(M * K);
        sets[s].b = Buf<__nv_fp8_e4m3>(N * K);
        sets[s].d = Buf<__nv_bfloat16>(M * rmax);
        sets[s].lora_b = Buf<__nv_bfloat16>(N * rmax);
        sets[s].out = Buf<__nv_bfloat16>(M * N);
        fill_fp8<<<1024, 256, 0, stream>>>(sets[s].a.p, sets[s].a.n, 10 + s, 4.0f);
        fill_fp8<<<1024, 256, 0, stream>>>(sets[s].b.p, sets[s].b.n, 100 + s, 4.0f);
        fill_bf16<<<1024, 256, 0, stream>>>(sets[s].d.p, sets[s].d.n, 1000 + s, 2.0f);
        fill_bf16<<<1024, 256, 0, stream>>>(sets[s].lora_b.p, sets[s].lora_b.n, 10000 + s, 2.0f);
      }
      // Whole turns over the sets: a replay's first call then reads the set its last
      // call read nsets - 1 calls ago (at least twice the L2 since), never one still in L2.
      const int calls = nsets * ((20 + nsets - 1) / nsets);
      // --bias: one bias for every set (N values: it stays in L2, as a layer's would).
      Buf<__nv_bfloat16> bias(with_bias ? N : 0);
      if (with_bias) fill_bf16<<<1024, 256, 0, stream>>>(bias.p, bias.n, 7, 2.0f);
      const __nv_bfloat16* bias_p = with_bias ? bias.p : nullptr;

      LtGemm base(&lt, M, N, K, CUDA_R_8F_E4M3, CUDA_R_16BF, true, scales.a(), scales.b(), bias_p);
      LtGemm base_nofast(&lt, M, N, K, CUDA_R_8F_E4M3, CUDA_R_16BF, false, scales.a(), scales.b(), bias_p);
      // The fp32 reference: a and b widened exactly to bf16, bf16 GEMM with fp32
      // accumulation and output (no FP8 tensor-core accumulation involved).
      LtGemm ref_base(&lt, M, N, K, CUDA_R_16BF, CUDA_R_32F, false);
      Buf<__nv_bfloat16> wide_a(M * K), wide_b(N * K);
      widen<<<1024, 256, 0, stream>>>(sets[0].a.p, wide_a.p, wide_a.n);
      widen<<<1024, 256, 0, stream>>>(sets[0].b.p, wide_b.p, wide_b.n);

      // ---- CUTLASS (--cutlass), base only: one choice per mode for the shape.
      namespace cref = cake::bench::cutlass_ref;
      CutlassChoice cutlass_acc, cutlass_fast;
      Buf<char> cutlass_ws;
      auto cutlass_fn = [&](const CutlassChoice& c) {
        return [&, c](int i) {
          const Set& s = sets[i % nsets];
          const cref::Problem p{int(M), int(N), int(K), s.a.p, s.b.p, s.out.p, scales.alpha()};
          const cudaError_t e = c.config->run(p, c.swizzle, cutlass_ws.p, stream);
          if (e != cudaSuccess) throw std::runtime_error("CUTLASS " + c.describe() + ": " + cudaGetErrorString(e));
        };
      };

      for (int64_t r : Rs) {
        // a_scale ~ 1/sqrt(K): the base term stays O(1); the adapter is comparable.
        const float s_lora = 0.5f / std::sqrt(float(r));
        const float a_scale = 4.0f / std::sqrt(float(K)), b_scale = 0.25f;
        scales.set(a_scale, b_scale, s_lora, stream);
        if (with_cutlass && r == Rs.front()) {
          // Every configuration that can run the shape, at every raster swizzle, timed
          // interleaved in short rounds of their own (one after the other, the later
          // ones would run on a hotter board); the fastest of each mode is kept.
          const cref::Problem p{int(M), int(N), int(K), sets[0].a.p, sets[0].b.p, sets[0].out.p, scales.alpha()};
          std::vector<CutlassChoice> candidates;
          std::vector<std::function<void(int)>> fns;
          for (const cref::Config& config : cref::configs())
            for (int swizzle : {1, 2, 4, 8}) {
              const size_t ws = config.workspace(p, swizzle);
              if (ws == SIZE_MAX) continue;  // not a shape this configuration implements
              if (ws > cutlass_ws.n) cutlass_ws = Buf<char>(ws);
              const CutlassChoice c{&config, swizzle};
              try {
                cutlass_fn(c)(0);
                CK(cudaStreamSynchronize(stream));
              } catch (const std::exception& e) {
                std::fprintf(stderr, "note: CUTLASS %s left out at M=%lld N=%lld K=%lld: %s\n", c.describe().c_str(),
                             (long long)M, (long long)N, (long long)K, e.what());
                continue;
              }
              candidates.push_back(c);
              fns.push_back(cutlass_fn(c));
            }
          const std::vector<double> us = Timer{stream, 5, once, warmup_ms}.time(fns, calls);
          for (size_t j = 0; j < candidates.size(); ++j) {
            CutlassChoice& best = candidates[j].config->fast_accum ? cutlass_fast : cutlass_acc;
            if (us[j] < best.us) best = candidates[j], best.us = us[j];
          }
        }
        LtGemm lora(&lt, M, N, r, CUDA_R_16BF, CUDA_R_16BF, false);
        LtGemm ref_lora(&lt, M, N, r, CUDA_R_16BF, CUDA_R_32F, false);

        auto cake_args = [&](int i, const float* ls) {
          const Set& s = sets[i % nsets];
          cake::MmFp8LoraArgs x;
          x.M = M, x.N = N, x.K = K, x.r = r;
          x.a = s.a.p, x.b = s.b.p, x.a_scale = scales.a(), x.b_scale = scales.b();
          x.lora_scale = ls, x.d = s.d.p, x.lora_b = s.lora_b.p, x.out = s.out.p;
          x.bias = bias_p;
          return x;
        };

        // ---- timing: the variants interleaved (Timer), cuBLASLt first (profilers'
        // --once order: cuBLASLt fast, without fast accumulation, then cake).
        auto base_fn = [&](LtGemm& g) {
          return [&, gp = &g](int i) { const Set& s = sets[i % nsets]; gp->run(s.a.p, s.b.p, s.out.p, 1.0f, 0.0f, stream); };
        };
        std::vector<std::function<void(int)>> variants = {
            base_fn(base), base_fn(base_nofast),
            [&](int i) { run_cake(cake_args(i, scales.lora()), stream); },
            [&](int i) { run_cake(cake_args(i, scales.zero()), stream); },
            [&](int i) {
              const Set& s = sets[i % nsets];
              base.run(s.a.p, s.b.p, s.out.p, 1.0f, 0.0f, stream);
              lora.run(s.d.p, s.lora_b.p, s.out.p, s_lora, 1.0f, stream);
            }};
        for (const CutlassChoice* c : {&cutlass_acc, &cutlass_fast})
          if (c->config) variants.push_back(cutlass_fn(*c));
        // --sustain: cuBLASLt fast and accurate, cake, cake s=0 and the unfused path alone.
        std::vector<double> sustained(sustain_s > 0 ? 5 : 0, NAN);
        const std::vector<double> t = timer.time(variants, calls, sustain_s, &sustained);
        const double t_base = t[0], t_base_nofast = t[1], t_cake = t[2], t_cake0 = t[3], t_unfused = t[4];

        // ---- check both cake variants against the unfused fp32 result (set 0).
        Buf<float> ref(M * N);
        Buf<double> acc(5);
        // produce() writes set 0's out; the reference holds the adapter when with_adapter.
        auto check = [&](const std::function<void()>& produce, bool with_adapter) {
#if CAKE_TIMELINE
          // The timelines keep the timed launches'.
          struct Keep {
            unsigned long long* kept = cake::sm90::g_timeline;
            Keep() { cake::sm90::g_timeline = nullptr; }
            ~Keep() { cake::sm90::g_timeline = kept; }
          } keep;
#endif
          // alpha = a_scale * b_scale in fp32, as the contract computes it.
          ref_base.run(wide_a.p, wide_b.p, ref.p, a_scale * b_scale, 0.0f, stream);
          if (with_adapter) ref_lora.run(sets[0].d.p, sets[0].lora_b.p, ref.p, s_lora, 1.0f, stream);
          if (bias_p) add_bias<<<264, 256, 0, stream>>>(ref.p, bias_p, M, N);
          CK(cudaMemsetAsync(sets[0].out.p, 0xFF, M * N * 2, stream));
          produce();
          CK(cudaMemsetAsync(acc.p, 0, 5 * sizeof(double), stream));
          compare<<<264, 256, 0, stream>>>(sets[0].out.p, ref.p, M * N, acc.p);
          double h[5];
          CK(cudaMemcpyAsync(h, acc.p, sizeof h, cudaMemcpyDeviceToHost, stream));
          CK(cudaStreamSynchronize(stream));
          const double ratio = h[2] > 0 ? std::sqrt(h[0] / h[2]) : (h[0] == 0 ? 0.0 : INFINITY);
          return std::make_tuple(ratio, h[3] / std::sqrt(h[1] / (M * N)), h[4] == 0);
        };
        auto [ratio, max_rel, finite] = check([&] { run_cake(cake_args(0, scales.lora()), stream); }, true);
        auto [ratio0, max_rel0, finite0] = check([&] { run_cake(cake_args(0, scales.zero()), stream); }, false);
        bool ok = finite && finite0 && ratio <= 1.10 && ratio0 <= 1.10;
        // CUTLASS's outputs against the base product: promoted within cake's bound;
        // fast accumulation (1.2x the floor at K = 4096 on the H200, 1.9x at
        // K = 14336) only far from what a wrong kernel would read.
        for (CutlassChoice* c : {&cutlass_acc, &cutlass_fast}) {
          if (!c->config) continue;
          auto [cr, cmax, cfinite] = check([&] { cutlass_fn(*c)(0); }, false);
          c->check_ratio = cr;
          ok &= cfinite && cr <= (c->config->fast_accum ? 8.0 : 1.10);
        }

        Row row{M, N, K, r, t_cake, t_cake0, t_base, t_base_nofast, t_unfused, ratio, ratio0, max_rel, ok};
        size_t next = 5;
        if (cutlass_acc.config) row.cutlass = t[next++], row.cutlass_config = cutlass_acc.describe();
        if (cutlass_fast.config) row.cutlass_fast = t[next++], row.cutlass_fast_config = cutlass_fast.describe();
        row.bytes = double(M) * K + double(N) * K + 2.0 * (M + N) * r + 2.0 * M * N;
        row.flops = 2.0 * M * N * K + 2.0 * M * N * r;
        row.floor_us = std::max(row.bytes / (copy_TBps * 1e12),
                                2.0 * M * N * K / (fp8_TFLOPs * 1e12) + 2.0 * M * N * r / (bf16_TFLOPs * 1e12)) * 1e6;
        rows.push_back(row);
        std::printf("%6lld %6lld %6lld %4lld | %9.2f %9.2f %9.2f %9.2f %9.2f | %7.0f %7.0f | %9.3f %9.3f %9.3f | %6.2f %6s%s\n",
                    (long long)M, (long long)N, (long long)K, (long long)r, t_cake, t_cake0, t_base, t_base_nofast,
                    t_unfused, row.flops / (t_cake * 1e-6) / 1e12, row.bytes / (t_cake * 1e-6) / 1e9, t_cake / t_base,
                    t_cake / t_unfused, t_cake0 / t_base, row.floor_us, ok ? "ok" : "FAIL",
                    fallback.empty() ? "" : "  (not the forced pairs: the program's own ran)");
        if (with_cutlass)
          std::printf("%29s CUTLASS promoted %9.2f (%s, check %.3f) | fast %9.2f (%s, check %.3f) | cake/promoted %.3f"
                      " cake/fast %.3f\n",
                      "", row.cutlass, cutlass_acc.describe().c_str(), cutlass_acc.check_ratio, row.cutlass_fast,
                      cutlass_fast.describe().c_str(), cutlass_fast.check_ratio, t_cake / row.cutlass,
                      t_cake / row.cutlass_fast);
        if (!sustained.empty()) {
          const std::vector<double>& u = sustained;
          std::printf("%29s each alone for %.0f s: %9.2f %9.2f %9.2f %9.2f %9.2f | cake / cuBLASLt fast %.3f, "
                      "/ accurate %.3f, / unfused %.3f, s=0 / fast %.3f\n",
                      "", sustain_s, u[2], u[3], u[0], u[1], u[4], u[2] / u[0], u[2] / u[1], u[2] / u[4], u[3] / u[0]);
        }
        std::fflush(stdout);
      }
    }
  }

#if CAKE_TIMELINE
  if (timeline.p) {
    std::vector<unsigned long long> h(timeline.n);
    CK(cudaMemcpy(h.data(), timeline.p, h.size() * sizeof h[0], cudaMemcpyDeviceToHost));
    std::ofstream(timeline_file, std::ios::binary).write(reinterpret_cast<const char*>(h.data()), h.size() * sizeof h[0]);
    std::printf("\nwrote the timelines to %s (scripts/timeline.py reads them)\n", timeline_file.c_str());
    cake::sm90::g_timeline = nullptr;
  }
#endif
  // ---- host overhead of one C++ call (argument checks, plan, tensor maps, launch), no sync
  double host_us = 0;
  {
    const int64_t M = 16, N = 4096, K = 4096, r = 128;
    Set s;
    s.a = Buf<__nv_fp8_e4m3>(M * K), s.b = Buf<__nv_fp8_e4m3>(N * K);
    s.d = Buf<__nv_bfloat16>(M * r), s.lora_b = Buf<__nv_bfloat16>(N * r), s.out = Buf<__nv_bfloat16>(M * N);
    cake::MmFp8LoraArgs x;
    x.M = M, x.N = N, x.K = K, x.r = r, x.a = s.a.p, x.b = s.b.p, x.a_scale = scales.a(), x.b_scale = scales.b();
    x.lora_scale = scales.lora(), x.d = s.d.p, x.lora_b = s.lora_b.p, x.out = s.out.p;
    std::vector<double> t;
    for (int round = 0; round < 7; ++round) {
      CK(cudaStreamSynchronize(stream));
      const int calls = 100;  // few enough that the launch queue never fills
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < calls; ++i) run_cake(x, stream);
      const auto t1 = std::chrono::steady_clock::now();
      t.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / calls);
    }
    CK(cudaStreamSynchronize(stream));
    std::sort(t.begin(), t.end());
    host_us = t[t.size() / 2];
    std::printf("\nhost overhead: one C++ cake::mm_fp8_lora call costs %.2f us of CPU time (median of 7 x 100 calls, no sync)\n",
                host_us);
  }

  // ---- summary per regime (r = the largest rank measured)
  const int64_t rsum = *std::max_element(Rs.begin(), Rs.end());
  // "cuBLASLt" is its FP8 GEMM with fast accumulation, base only; "accurate" the same
  // without fast accumulation (what cake's accuracy bar asks of cake). Bandwidth: the
  // weight-bound regime only, weights of 32 MiB or more.
  std::printf("\nsummary (r = %lld): geometric mean [worst] of time ratios per regime\n", (long long)rsum);
  std::printf("%-12s %6s | %17s | %17s | %17s | %17s | %s\n", "regime", "shapes", "cake / cuBLASLt",
              "cake / accurate", "cake / unfused", "cake s=0 / cuBLASLt", "cake BW % copy (M <= 64)");
  struct Acc {
    std::vector<double> base, accurate, unf, zero, bw;
    // --cutlass: cake and cake s=0 over CUTLASS promoted, cake over CUTLASS fast, and
    // each reference's promoted / fast mode over cuBLASLt's fast one
    std::vector<double> cut, zero_cut, cut_fast, cut_lt, cut_fast_lt, lt_accurate_lt;
  };
  std::map<std::string, Acc> by;
  std::vector<std::string> order;
  bool all_ok = true;
  for (const Row& r : rows) {
    all_ok &= r.check_ok;
    if (r.r != rsum) continue;
    const std::string g = regime(r.M);
    if (!by.count(g)) order.push_back(g);
    by[g].base.push_back(r.cake / r.base);
    by[g].accurate.push_back(r.cake / r.base_nofast);
    by[g].unf.push_back(r.cake / r.unfused);
    by[g].zero.push_back(r.cake0 / r.base);
    if (r.M <= 64 && double(r.N) * r.K >= 32.0 * (1 << 20)) by[g].bw.push_back(r.bytes / (r.cake * 1e-6) / (copy_TBps * 1e12));
    if (std::isfinite(r.cutlass) && std::isfinite(r.cutlass_fast)) {
      Acc& a = by[g];
      a.cut.push_back(r.cake / r.cutlass), a.zero_cut.push_back(r.cake0 / r.cutlass);
      a.cut_fast.push_back(r.cake / r.cutlass_fast), a.cut_lt.push_back(r.cutlass / r.base);
      a.cut_fast_lt.push_back(r.cutlass_fast / r.base), a.lt_accurate_lt.push_back(r.base_nofast / r.base);
    }
  }
  std::vector<double> all_unf, all_zero;
  for (const auto& g : order) {
    const Acc& a = by[g];
    auto worst = [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); };
    std::string bw = "-";
    if (!a.bw.empty()) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.0f%% (min %.0f%%)", 100 * geomean(a.bw), 100 * *std::min_element(a.bw.begin(), a.bw.end()));
      bw = buf;
    }
    std::printf("%-12s %6zu | %8.3f [%6.3f] | %8.3f [%6.3f] | %8.3f [%6.3f] | %8.3f [%6.3f] | %s\n", g.c_str(),
                a.base.size(), geomean(a.base), worst(a.base), geomean(a.accurate), worst(a.accurate), geomean(a.unf),
                worst(a.unf), geomean(a.zero), worst(a.zero), bw.c_str());
    all_unf.insert(all_unf.end(), a.unf.begin(), a.unf.end());
    all_zero.insert(all_zero.end(), a.zero.begin(), a.zero.end());
  }
  std::printf("%-12s %6zu | %17s | %17s | %8.3f [%6.3f] | %8.3f [%6.3f] |\n", "all", all_unf.size(), "", "",
              geomean(all_unf),
              all_unf.empty() ? NAN : *std::max_element(all_unf.begin(), all_unf.end()), geomean(all_zero),
              all_zero.empty() ? NAN : *std::max_element(all_zero.begin(), all_zero.end()));
  if (with_cutlass) {
    // "promoted": CUTLASS's FP8 mainloop adding the partial sums into fp32 every 128 K,
    // as cuBLASLt's accurate mode and cake do; "fast": its FP8FastAccum schedules.
    std::printf("\nagainst CUTLASS (r = %lld): geometric mean [worst] of time ratios per regime\n", (long long)rsum);
    std::printf("%-12s %6s | %17s | %17s | %17s | %17s | %17s | %17s\n", "regime", "shapes", "cake / promoted",
                "cake s=0 / prom.", "cake / fast", "promoted / cuBLASLt", "fast / cuBLASLt", "cuBLASLt acc / fast");
    for (const auto& g : order) {
      const Acc& a = by[g];
      if (a.cut.empty()) continue;
      auto cell = [](const std::vector<double>& v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%8.3f [%6.3f]", geomean(v), *std::max_element(v.begin(), v.end()));
        return std::string(buf);
      };
      std::printf("%-12s %6zu | %s | %s | %s | %s | %s | %s\n", g.c_str(), a.cut.size(), cell(a.cut).c_str(),
                  cell(a.zero_cut).c_str(), cell(a.cut_fast).c_str(), cell(a.cut_lt).c_str(),
                  cell(a.cut_fast_lt).c_str(), cell(a.lt_accurate_lt).c_str());
    }
  }

  // ---- files
  std::error_code mkdir_error;
  std::filesystem::create_directories(out_dir, mkdir_error);
  std::ofstream csv(out_dir + "/bench.csv");
  if (!csv) {
    std::fprintf(stderr, "cake_bench: cannot write %s/bench.csv (%s)\n", out_dir.c_str(), mkdir_error.message().c_str());
    return 1;
  }
  csv << "M,N,K,r,cake_us,cake_s0_us,cublaslt_us,cublaslt_nofast_us,unfused_us,floor_us,cake_TFLOPs,cake_GBps,"
         "cake_over_cublaslt,cake_over_unfused,cake_s0_over_cublaslt,check_ratio,check_ok,cutlass_us,cutlass_fast_us,"
         "cutlass_config,cutlass_fast_config\n";
  std::ofstream js(out_dir + "/bench.json");
  js << "{\n \"device\": \"" << prop.name << "\",\n \"sms\": " << prop.multiProcessorCount << ",\n \"sms_used\": " << cake::num_sms(0) << ",\n \"dram_gbps\": " << cake::device_info(0).dram_gbps << ",\n \"copy_TBps\": " << json_num(copy_TBps)
     << ",\n \"fp8_TFLOPs\": " << json_num(fp8_TFLOPs) << ",\n \"bf16_TFLOPs\": " << json_num(bf16_TFLOPs) << ",\n \"host_call_us\": " << json_num(host_us)
     << ",\n \"bias\": " << (with_bias ? "true" : "false") << ",\n \"rows\": [\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const double tf = r.flops / (r.cake * 1e-6) / 1e12, gb = r.bytes / (r.cake * 1e-6) / 1e9;
    csv << r.M << "," << r.N << "," << r.K << "," << r.r << "," << r.cake << "," << r.cake0 << "," << r.base << ","
        << r.base_nofast << "," << r.unfused << "," << r.floor_us << "," << tf << "," << gb << "," << r.cake / r.base << ","
        << r.cake / r.unfused << "," << r.cake0 / r.base << "," << r.check_ratio << "," << (r.check_ok ? 1 : 0) << ","
        << r.cutlass << "," << r.cutlass_fast << "," << r.cutlass_config << "," << r.cutlass_fast_config << "\n";
    js << "  {\"M\": " << r.M << ", \"N\": " << r.N << ", \"K\": " << r.K << ", \"r\": " << r.r
       << ", \"cake_us\": " << json_num(r.cake) << ", \"cake_s0_us\": " << json_num(r.cake0)
       << ", \"cublaslt_us\": " << json_num(r.base) << ", \"cublaslt_nofast_us\": " << json_num(r.base_nofast)
       << ", \"unfused_us\": " << json_num(r.unfused) << ", \"floor_us\": " << json_num(r.floor_us)
       << ", \"cake_TFLOPs\": " << json_num(tf) << ", \"cake_GBps\": " << json_num(gb)
       << ", \"check_ratio\": " << json_num(r.check_ratio) << ", \"check_ok\": " << (r.check_ok ? "true" : "false");
    if (std::isfinite(r.cutlass))
      js << ", \"cutlass_us\": " << r.cutlass << ", \"cutlass_config\": \"" << r.cutlass_config << "\"";
    if (std::isfinite(r.cutlass_fast))
      js << ", \"cutlass_fast_us\": " << r.cutlass_fast << ", \"cutlass_fast_config\": \"" << r.cutlass_fast_config << "\"";
    js << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
  }
  js << " ]\n}\n";
  std::printf("\nwrote %s/bench.csv and %s/bench.json\n", out_dir.c_str(), out_dir.c_str());
  if (!all_ok) {
    std::printf("CHECK FAILED: a checked variant (cake, or CUTLASS with --cutlass) disagreed with the fp32 result (see 'check')\n");
    return 3;
  }
  return 0;
}

int main(int argc, char** argv) {
  try {
    return run_bench(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cake_bench: %s\n", e.what());
    return 2;
  }
}
