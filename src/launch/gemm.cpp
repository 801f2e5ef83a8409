// The entry points: contract -> plan -> launch.
#include "cake/gemm.h"

#include <string>

#include "cake/contract.h"
#include "cake/errors.h"
#include "launch/device.h"
#include "sm90/launch.h"

namespace cake {
namespace {

// The plan for checked args on a device, made for `sms` SMs.
Plan resolve(const char* op, const MmFp8LoraArgs& args, const DeviceInfo& info, int sms) {
  const Arch arch = require_arch(info);
  check_problem(op, args, arch);
  const int64_t r = args.lora_scale ? args.r : 0;
  return plan(args.M, args.N, args.K, r, arch, sms, info.dram_gbps);
}

void run(const char* op, const MmFp8LoraArgs& args, cudaStream_t stream) {
  const int device = current_device();
  const int sms = num_sms(device);
  const DeviceInfo& info = device_info(device);
  const Plan p = resolve(op, args, info, sms);
  switch (p.arch) {
    case Arch::SM90:
      sm90::launch(p, args, sms, info.dram_gbps, stream);
      return;
    case Arch::SM100:
    case Arch::SM103:
      // The routing exists (plan()); the programs do not yet. Fail closed.
      throw UnsupportedArchitecture(std::string("cake: ") + arch_name(p.arch) + " (" +
                                    program_name(p.program) +
                                    ") programs are not built yet; this release runs on sm90 only");
  }
}

MmFp8LoraArgs without_adapter(MmFp8LoraArgs args) {
  args.lora_scale = nullptr;
  args.d = nullptr;
  args.lora_b = nullptr;
  args.r = 0;
  return args;
}

}  // namespace

void mm_fp8_lora(const MmFp8LoraArgs& args, cudaStream_t stream) { run("mm_fp8_lora", args, stream); }

void mm_fp8(const MmFp8LoraArgs& args, cudaStream_t stream) {
  run("mm_fp8", without_adapter(args), stream);
}

Plan plan_for(const MmFp8LoraArgs& args) {
  const int device = current_device();
  return resolve("plan_for", args, device_info(device), num_sms(device));
}

}  // namespace cake
