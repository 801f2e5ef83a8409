// 256-wide warpgroup tiles the other ways, fast accumulation only (as coop_large_fast.cu).
#include "gemm.cuh"

namespace cake::bench::cutlass_ref {

void add_wide_fast(std::vector<Config>& out) {
  out.push_back(Gemm<128, 256, 1, 2, Cooperative, true, false>::config("coop 128x256 1x2 fastacc"));
  out.push_back(Gemm<64, 256, 1, 1, Pingpong, true, false>::config("pingpong 64x256 1x1 fastacc"));
}

}  // namespace cake::bench::cutlass_ref
