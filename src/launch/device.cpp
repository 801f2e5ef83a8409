#include "launch/device.h"

#include <cuda_runtime_api.h>

#include <array>
#include <atomic>
#include <mutex>
#include <sstream>

#include "cake/errors.h"
#include "cake/gemm.h"

namespace cake {
namespace {
constexpr int kMaxDevices = 64;
std::array<DeviceInfo, kMaxDevices> g_info;
std::array<std::once_flag, kMaxDevices> g_once;
std::array<std::atomic<int>, kMaxDevices> g_sm_limit{};  // 0: all of the device's SMs
}  // namespace

void check_cuda(int status, const char* what) {
  if (status == cudaSuccess) return;
  const auto e = static_cast<cudaError_t>(status);
  std::ostringstream os;
  os << "cake: " << what << " failed: " << cudaGetErrorName(e) << " (" << cudaGetErrorString(e) << ")";
  throw CudaError(os.str());
}

int current_device() {
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  return device;
}

int dram_gbps(int memory_khz, int bus_bits) {
  if (memory_khz <= 0 || bus_bits <= 0) return 0;
  // memory_khz x 1e3 clocks/s x 2 transfers per clock x bus_bits / 8 bytes per transfer, / 1e9.
  return static_cast<int>(int64_t{memory_khz} * bus_bits / 4000000);
}

const DeviceInfo& device_info(int device) {
  if (device < 0 || device >= kMaxDevices) check_cuda(cudaErrorInvalidDevice, "device lookup");
  std::call_once(g_once[device], [device] {
    DeviceInfo& d = g_info[device];
    check_cuda(cudaDeviceGetAttribute(&d.major, cudaDevAttrComputeCapabilityMajor, device),
               "cudaDeviceGetAttribute");
    check_cuda(cudaDeviceGetAttribute(&d.minor, cudaDevAttrComputeCapabilityMinor, device),
               "cudaDeviceGetAttribute");
    check_cuda(cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, device),
               "cudaDeviceGetAttribute");
    d.arch = arch_from_compute_capability(d.major, d.minor);
    // Both attributes may be unreported (0): the plan then takes the bandwidth as unknown.
    int memory_khz = 0, bus_bits = 0;
    if (cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) != cudaSuccess)
      memory_khz = bus_bits = 0, (void)cudaGetLastError();  // leave no error behind for the caller
    d.dram_gbps = dram_gbps(memory_khz, bus_bits);
  });
  return g_info[device];
}

void set_num_sms(int device, int sms) {
  const DeviceInfo& info = device_info(device);
  if (sms < 0 || sms > info.sms) {
    std::ostringstream os;
    os << "set_num_sms: num_sms must be between 1 and device " << device << "'s " << info.sms
       << " SMs, or 0 for all of them (got " << sms << ")";
    throw InvalidArgument(os.str());
  }
  g_sm_limit[device].store(sms, std::memory_order_relaxed);
}

int num_sms(int device) {
  const int all = device_info(device).sms;
  const int limit = g_sm_limit[device].load(std::memory_order_relaxed);
  return limit > 0 ? limit : all;
}

Arch require_arch(const DeviceInfo& info) {
  if (info.arch) return *info.arch;
  std::ostringstream os;
  os << "cake: compute capability " << info.major << "." << info.minor
     << " is not supported; cake runs on compute capability 9.0 (SM90: H100, H200), "
        "10.0 (SM100: B200) and 10.3 (SM103: B300)";
  throw UnsupportedArchitecture(os.str());
}

DeviceGuard::DeviceGuard(int device) {
  const int now = current_device();
  if (now != device) {
    check_cuda(cudaSetDevice(device), "cudaSetDevice");
    previous_ = now;
  }
}

DeviceGuard::~DeviceGuard() {
  if (previous_ >= 0) cudaSetDevice(previous_);
}

}  // namespace cake
