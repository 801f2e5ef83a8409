// Small batches, weights on the tile's M side: 128 weight rows x 64 tokens, both modes.
#include "gemm.cuh"

namespace cake::bench::cutlass_ref {

void add_swap_coop_128x64(std::vector<Config>& out) {
  out.push_back(Gemm<128, 64, 1, 1, Cooperative, false, true>::config("swap coop 128x64 1x1"));
  out.push_back(Gemm<128, 64, 1, 1, Cooperative, true, true>::config("swap coop 128x64 1x1 fastacc"));
}

}  // namespace cake::bench::cutlass_ref
