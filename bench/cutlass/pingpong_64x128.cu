// 64 x 128 tiles, one per consumer warpgroup (ping-pong), both modes.
#include "gemm.cuh"

namespace cake::bench::cutlass_ref {

void add_pingpong_64x128(std::vector<Config>& out) {
  out.push_back(Gemm<64, 128, 1, 1, Pingpong, false, false>::config("pingpong 64x128 1x1"));
  out.push_back(Gemm<64, 128, 1, 1, Pingpong, true, false>::config("pingpong 64x128 1x1 fastacc"));
}

}  // namespace cake::bench::cutlass_ref
