// Host side of the Hopper programs: tensor maps, kernel parameters, launch.
#pragma once

#include <cuda_runtime_api.h>

#include "cake/gemm.h"
#include "cake/plan.h"

namespace cake::sm90 {

// Launches the program `plan` names (a Hopper program) for checked `args` on
// the current device.
void launch(const Plan& plan, const MmFp8LoraArgs& args, cudaStream_t stream);

}  // namespace cake::sm90
