// Host side of the Hopper programs: tensor maps, kernel parameters, launch.
#pragma once

#include <cuda_runtime_api.h>

#include "cake/gemm.h"
#include "cake/plan.h"

namespace cake::sm90 {

// Launches the program `plan` names (a Hopper program) for checked `args` on
// the current device: on the plan's head region (head_m rows, head_n columns),
// then the rows or columns past it as the problem of their own that plan() makes
// of them for num_sms SMs and dram_gbps (a second launch on the same stream;
// src/plan/rules.h kHopperRegionMinGainPercent).
void launch(const Plan& plan, const MmFp8LoraArgs& args, int num_sms, int dram_gbps, cudaStream_t stream);

}  // namespace cake::sm90
