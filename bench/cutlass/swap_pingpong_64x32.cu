// Small batches: 64 weight rows x 32 tokens, both modes.
#include "gemm.cuh"

namespace cake::bench::cutlass_ref {

void add_swap_pingpong_64x32(std::vector<Config>& out) {
  out.push_back(Gemm<64, 32, 1, 1, Pingpong, false, true>::config("swap pingpong 64x32 1x1"));
  out.push_back(Gemm<64, 32, 1, 1, Pingpong, true, true>::config("swap pingpong 64x32 1x1 fastacc"));
}

}  // namespace cake::bench::cutlass_ref
