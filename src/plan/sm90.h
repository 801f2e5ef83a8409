// The Hopper plan's two halves and what they share. Internal to the plan:
//  - sm90_program.cpp: one given program's plan (tiles, narrow rows, split-K, CTA
//    pairs, raster): plan_sm90_program, declared in cake/plan.h;
//  - sm90_choice.cpp: which program, and whether in two regions (plan_sm90).
#pragma once

#include <cstdint>

#include "cake/plan.h"

namespace cake::planner {

// K elements between promotions of the tensor cores' partial sums into fp32.
int hopper_promotion_k(int64_t K);

// What the busiest SM of a swap program streams, in 128-deep K blocks times rows
// (the narrow rows' and the few-SM rule's estimate; sm90_program.cpp).
int64_t busiest_sm_rows_streamed(const Plan& p, int64_t M, int64_t N, int64_t K, int num_sms);

// The plan of a problem on a Hopper board of num_sms SMs and dram_gbps DRAM
// bandwidth (0: unknown, planned as on the H200).
Plan plan_sm90(int64_t M, int64_t N, int64_t K, int num_sms, int dram_gbps);

}  // namespace cake::planner
