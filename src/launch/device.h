// What the launcher needs to know about a CUDA device, read once per device.
#pragma once

#include <optional>

#include "cake/plan.h"

namespace cake {

struct DeviceInfo {
  int major = 0, minor = 0;  // compute capability
  int sms = 0;               // multiprocessors
  // Peak DRAM bandwidth, GB/s: memory clock x bus width x 2 (double data rate), an
  // input of plan(); 0 where the runtime reports no memory clock or bus width.
  int dram_gbps = 0;
  std::optional<Arch> arch;  // nullopt: cake has no programs for it
};

// GB/s from the runtime's memory clock (kHz) and bus width (bits); 0 when either is
// not positive.
int dram_gbps(int memory_khz, int bus_bits);

// Cached per device ordinal; the first call per device queries the runtime.
// `sms` is the hardware's count; plans use cake::num_sms (cake/gemm.h), which
// set_num_sms may lower.
const DeviceInfo& device_info(int device);

// The architecture of `device`, or cake::UnsupportedArchitecture naming its
// compute capability and the supported ones.
Arch require_arch(const DeviceInfo& info);

int current_device();

// Makes `device` current for the guard's lifetime (no-op when it already is).
class DeviceGuard {
 public:
  explicit DeviceGuard(int device);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = -1;
};

// Throws cake::CudaError when `status` is not cudaSuccess.
void check_cuda(int status, const char* what);

}  // namespace cake
