// The Python binding, over TVM-FFI (DLPack tensors; no dependency on torch).
//
// Tensors arrive as DLPack views; the calling framework's current stream for the
// device arrives through TVM-FFI's environment stream. Each function turns its
// arguments into descriptions, runs the contract (cake/contract.h), and calls
// the same C++ entry point a C++ user calls. cake's exceptions become Python's
// ValueError / cake.UnsupportedArchitectureError / RuntimeError.
#include <cuda_runtime_api.h>
#include <dlpack/dlpack.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <limits>
#include <optional>
#include <string>

#include "cake/contract.h"
#include "cake/errors.h"
#include "cake/gemm.h"
#include "cake/plan.h"
#include "launch/device.h"

namespace {

using tvm::ffi::Any;
using tvm::ffi::Map;
using tvm::ffi::Optional;
using tvm::ffi::String;
using tvm::ffi::TensorView;

// Runs `fn`, translating cake's exceptions into the Python exception kinds.
template <typename Fn>
auto translate_errors(Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const cake::InvalidArgument& e) {
    throw tvm::ffi::Error("ValueError", e.what(), "");
  } catch (const cake::UnsupportedArchitecture& e) {
    throw tvm::ffi::Error("UnsupportedArchitectureError", e.what(), "");
  } catch (const cake::CudaError& e) {
    throw tvm::ffi::Error("RuntimeError", e.what(), "");
  }
}

cake::DType dtype_of(DLDataType t) {
  if (t.lanes != 1) return cake::DType::kOther;
  if (t.code == kDLFloat8_e4m3fn && t.bits == 8) return cake::DType::kFloat8E4M3;
  if (t.code == kDLBfloat && t.bits == 16) return cake::DType::kBFloat16;
  if (t.code == kDLFloat && t.bits == 32) return cake::DType::kFloat32;
  return cake::DType::kOther;
}

// `labels`: also the dtype and device names the messages use. A call builds them
// only once a rule has failed (they cost string work on every call otherwise).
cake::TensorDesc describe(const TensorView& t, bool labels) {
  cake::TensorDesc d;
  d.data = static_cast<const char*>(t.data_ptr()) + t.byte_offset();
  d.dtype = dtype_of(t.dtype());
  d.ndim = t.ndim();
  const DLDevice dev = t.device();
  d.on_cuda = dev.device_type == kDLCUDA;
  d.device = dev.device_id;
  if (labels) {
    d.dtype_label = std::string(tvm::ffi::DLDataTypeToString(t.dtype()));
    if (d.on_cuda)
      d.device_label = "cuda:" + std::to_string(d.device);
    else if (dev.device_type == kDLCPU)
      d.device_label = "cpu";
    else
      d.device_label = "device type " + std::to_string(dev.device_type);
  }
  if (d.ndim > 4) return d;  // the rank check fails before any shape is read
  for (int i = 0; i < d.ndim; ++i) {
    d.shape[i] = t.size(i);
    d.strides[i] = t.stride(i);
  }
  return d;
}

std::optional<cake::TensorDesc> describe(const Optional<TensorView>& view, bool labels) {
  if (!view.has_value()) return std::nullopt;
  return describe(view.value(), labels);
}

// Both Python entry points: `op` ("mm_fp8_lora" or "mm_fp8") names the call in
// error messages; lora_scale=None turns the adapter off (d and lora_b are then
// not looked at).
void gemm(String op, TensorView a, TensorView b, TensorView a_scale, TensorView b_scale, Optional<TensorView> d,
          Optional<TensorView> lora_b, Optional<TensorView> lora_scale, Optional<TensorView> bias, TensorView out,
          String backend, Optional<bool> enable_pdl) {
  const std::string name(op);
  translate_errors([&] {
    cake::check_options(name.c_str(), std::string(backend),
                        enable_pdl.has_value() ? std::optional<bool>(*enable_pdl) : std::nullopt);
    auto tensors = [&](bool labels) {
      cake::MmTensors t;
      t.a = describe(a, labels);
      t.b = describe(b, labels);
      t.a_scale = describe(a_scale, labels);
      t.b_scale = describe(b_scale, labels);
      t.lora_scale = describe(lora_scale, labels);
      if (t.lora_scale) {
        t.d = describe(d, labels);
        t.lora_b = describe(lora_b, labels);
      }
      t.bias = describe(bias, labels);
      t.out = describe(out, labels);
      return t;
    };
    const cake::MmTensors t = tensors(false);
    cake::CheckedTensors c;
    try {
      c = cake::check_tensors(name.c_str(), t);
    } catch (const cake::InvalidArgument&) {
      // The rules are pure: run them again on described names for the message.
      cake::check_tensors(name.c_str(), tensors(true));
      throw;
    }
    cake::DeviceGuard guard(c.device);
    auto stream = static_cast<cudaStream_t>(TVMFFIEnvGetStream(kDLCUDA, c.device));
    if (t.lora_scale)
      cake::mm_fp8_lora(c.args, stream);
    else
      cake::mm_fp8(c.args, stream);
  });
}

Map<String, Any> plan_to_map(const cake::Plan& p) {
  Map<String, Any> m;
  m.Set("program", String(cake::program_name(p.program)));
  m.Set("arch", String(cake::arch_name(p.arch)));
  m.Set("tile_m", static_cast<int64_t>(p.tile_m));
  m.Set("tile_n", static_cast<int64_t>(p.tile_n));
  m.Set("tile_k", static_cast<int64_t>(p.tile_k));
  m.Set("swap_ab", p.swap_ab);
  m.Set("cluster_m", static_cast<int64_t>(p.cluster_m));
  m.Set("cluster_n", static_cast<int64_t>(p.cluster_n));
  m.Set("split_k", static_cast<int64_t>(p.split_k));
  m.Set("promotion_k", static_cast<int64_t>(p.promotion_k));
  m.Set("scheduler", String(p.scheduler));
  m.Set("raster", String(p.raster));
  m.Set("raster_group", static_cast<int64_t>(p.raster_group));
  m.Set("raster_block_m", static_cast<int64_t>(p.raster_block_m));
  m.Set("raster_block_n", static_cast<int64_t>(p.raster_block_n));
  m.Set("tiles_m", p.tiles_m);
  m.Set("tiles_n", p.tiles_n);
  m.Set("tiles", p.tiles);
  m.Set("workers", p.workers);
  m.Set("waves", p.waves);
  m.Set("grid", static_cast<int64_t>(p.grid));
  m.Set("head_m", p.head_m);
  m.Set("head_n", p.head_n);
  return m;
}

Map<String, Any> plan(int64_t M, int64_t N, int64_t K, int64_t r, String arch, int64_t num_sms, int64_t dram_gbps) {
  return translate_errors([&] {
    const std::optional<cake::Arch> a = cake::parse_arch(std::string(arch));
    if (!a)
      throw cake::InvalidArgument("plan: arch must be one of sm90, sm100, sm103 (got \"" +
                                  std::string(arch) + "\")");
    if (num_sms > std::numeric_limits<int>::max() || dram_gbps > std::numeric_limits<int>::max())
      throw cake::InvalidArgument("plan: num_sms and dram_gbps must fit in 32 bits");
    return plan_to_map(cake::plan(M, N, K, r, *a, static_cast<int>(num_sms), static_cast<int>(dram_gbps)));
  });
}

// (compute capability major, minor, SM count, DRAM bandwidth in GB/s as the plan
// takes it, cake's name of the architecture or "") of a device.
Map<String, Any> device_info(int64_t device) {
  return translate_errors([&] {
    const cake::DeviceInfo& info = cake::device_info(static_cast<int>(device));
    Map<String, Any> m;
    m.Set("major", static_cast<int64_t>(info.major));
    m.Set("minor", static_cast<int64_t>(info.minor));
    m.Set("num_sms", static_cast<int64_t>(info.sms));
    m.Set("dram_gbps", static_cast<int64_t>(info.dram_gbps));
    m.Set("arch", String(info.arch ? cake::arch_name(*info.arch) : ""));
    return m;
  });
}

// The SM count cake plans for on a device (cake::set_num_sms / num_sms).
void set_num_sms(int64_t device, int64_t sms) {
  translate_errors([&] { cake::set_num_sms(static_cast<int>(device), static_cast<int>(sms)); });
}
int64_t num_sms(int64_t device) {
  return translate_errors([&] { return static_cast<int64_t>(cake::num_sms(static_cast<int>(device))); });
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(gemm, gemm);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(plan, plan);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(device_info, device_info);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(set_num_sms, set_num_sms);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(num_sms, num_sms);
