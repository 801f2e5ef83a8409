// The large tiles, fast accumulation only: promoted, a 64 x 256 warpgroup tile would need 256 accumulator registers a thread.
#include "gemm.cuh"

namespace cake::bench::cutlass_ref {

void add_coop_large_fast(std::vector<Config>& out) {
  out.push_back(Gemm<128, 256, 2, 1, Cooperative, true, false>::config("coop 128x256 2x1 fastacc"));
  out.push_back(Gemm<256, 128, 1, 2, Cooperative, true, false>::config("coop 256x128 1x2 fastacc"));
}

}  // namespace cake::bench::cutlass_ref
