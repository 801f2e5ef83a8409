// The configurations built into the benchmark (cutlass_reference.h), one
// translation unit per pair so that they compile in parallel.
#include "cutlass_reference.h"

namespace cake::bench::cutlass_ref {

void add_coop_128x128_2x1(std::vector<Config>&);
void add_coop_128x128_1x2(std::vector<Config>&);
void add_pingpong_64x128(std::vector<Config>&);
void add_coop_large_fast(std::vector<Config>&);
void add_swap_coop_128x64(std::vector<Config>&);
void add_swap_pingpong_64x64(std::vector<Config>&);
void add_swap_pingpong_64x32(std::vector<Config>&);
void add_coop_128x192(std::vector<Config>&);
void add_wide_fast(std::vector<Config>&);

const std::vector<Config>& configs() {
  static const std::vector<Config> all = [] {
    std::vector<Config> v;
    for (auto add : {add_coop_128x128_2x1, add_coop_128x128_1x2, add_pingpong_64x128, add_coop_large_fast,
                     add_swap_coop_128x64, add_swap_pingpong_64x64, add_swap_pingpong_64x32, add_coop_128x192,
                     add_wide_fast})
      add(v);
    return v;
  }();
  return all;
}

}  // namespace cake::bench::cutlass_ref
