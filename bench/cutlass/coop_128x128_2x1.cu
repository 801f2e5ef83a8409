// 128 x 128 tiles in clusters of 2 along M (cuBLASLt's tile at one wave of 128-token tiles), both modes.
#include "gemm.cuh"

namespace cake::bench::cutlass_ref {

void add_coop_128x128_2x1(std::vector<Config>& out) {
  out.push_back(Gemm<128, 128, 2, 1, Cooperative, false, false>::config("coop 128x128 2x1"));
  out.push_back(Gemm<128, 128, 2, 1, Cooperative, true, false>::config("coop 128x128 2x1 fastacc"));
}

}  // namespace cake::bench::cutlass_ref
