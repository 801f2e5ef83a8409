// The Blackwell plan (sm100.cpp). Internal to the plan.
#pragma once

#include <cstdint>

#include "cake/plan.h"

namespace cake::planner {

// The plan of a problem on SM100 / SM103 of num_sms SMs.
Plan plan_sm100(Arch arch, int64_t M, int64_t N, int64_t K, int num_sms);

}  // namespace cake::planner
