// 128 x 192 tiles (64 x 192 a consumer warpgroup: 96 + 96 accumulator registers a
// thread promoted) in clusters of 2 along M, both modes.
#include "gemm.cuh"

namespace cake::bench::cutlass_ref {

void add_coop_128x192(std::vector<Config>& out) {
  out.push_back(Gemm<128, 192, 2, 1, Cooperative, false, false>::config("coop 128x192 2x1"));
  out.push_back(Gemm<128, 192, 2, 1, Cooperative, true, false>::config("coop 128x192 2x1 fastacc"));
}

}  // namespace cake::bench::cutlass_ref
