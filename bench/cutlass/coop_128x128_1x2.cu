// 128 x 128 tiles in clusters of 2 along N, both modes.
#include "gemm.cuh"

namespace cake::bench::cutlass_ref {

void add_coop_128x128_1x2(std::vector<Config>& out) {
  out.push_back(Gemm<128, 128, 1, 2, Cooperative, false, false>::config("coop 128x128 1x2"));
  out.push_back(Gemm<128, 128, 1, 2, Cooperative, true, false>::config("coop 128x128 1x2 fastacc"));
}

}  // namespace cake::bench::cutlass_ref
