// The problem shapes the benchmark times and the plan table lists: one place, so
// that cake_bench and cake_plan walk the same grid (pure C++, no CUDA).
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace cake::bench {

// Every M against every (N, K).
struct ShapeSet {
  std::vector<int64_t> Ms;
  std::vector<std::pair<int64_t, int64_t>> NKs;
};

// The default grid, over which the performance bars are taken: decode, mid-size
// and large batches on Llama-3-8B / 70B projections.
inline ShapeSet grid_shapes() {
  return {{1, 16, 64, 128, 512, 2048, 8192},
          {{4096, 4096}, {6144, 4096}, {28672, 4096}, {4096, 14336}, {8192, 8192}}};
}

// A quick look (the README's main command).
inline ShapeSet quick_shapes() { return {{1, 64, 512, 4096}, {{4096, 4096}, {28672, 4096}, {4096, 14336}}}; }

// Between the grid's points: batch sizes past decode on the projections of
// serving models: Llama-3-8B (qkv, o, gate_up, down), Llama-3-70B over 8 GPUs
// (qkv, o, gate_up, down) and over 4 (qkv, o, gate_up, down), Qwen2.5-7B (qkv,
// gate_up, down). 195 shapes.
inline ShapeSet serving_shapes() {
  return {{96, 128, 160, 192, 256, 320, 384, 512, 768, 1024, 1536, 2048, 3072},
          {{6144, 4096}, {4096, 4096}, {28672, 4096}, {4096, 14336}, {1280, 8192}, {8192, 1024}, {7168, 8192},
           {8192, 3584}, {2560, 8192}, {8192, 2048}, {14336, 8192}, {8192, 7168}, {4608, 3584}, {37888, 3584},
           {3584, 18944}}};
}

// The plan's space, densely: where a change of a plan rule shows up
// (scripts/plan-diff). The weights' shapes of both sweeps: 26 x 11.
inline std::vector<std::pair<int64_t, int64_t>> dense_weights() {
  const int64_t Ns[] = {512,  768,  1024, 1280, 1536, 1792, 2048,  2304,  2560,  3072,  3584,  3840,  4096,
                        4608, 5120, 6144, 6400, 7168, 8192, 10240, 12288, 13824, 14336, 18944, 28672, 37888};
  const int64_t Ks[] = {1024, 2048, 3584, 4096, 6144, 7168, 8192, 12288, 14336, 16384, 18944};
  std::vector<std::pair<int64_t, int64_t>> nks;
  for (int64_t N : Ns)
    for (int64_t K : Ks) nks.push_back({N, K});
  return nks;
}

// Past decode: 34 x 286 = 9724 shapes.
inline ShapeSet dense_shapes() {
  return {{65,  72,  80,  96,  112, 128, 136,  144,  160,  176,  192,  208,  224,  256,  288,  320,  352,
           384, 448, 512, 576, 640, 768, 896, 1024, 1280, 1536, 1792, 2048, 2560, 3072, 4096, 6144, 8192},
          dense_weights()};
}

// Decode (the swap programs on 64-row weight tiles, M <= 64; each program's
// token widths and their edges): 11 x 286 = 3146 shapes.
inline ShapeSet decode_shapes() { return {{1, 2, 8, 16, 17, 24, 32, 33, 40, 48, 64}, dense_weights()}; }

// "1,16,64" -> {1, 16, 64}.
inline std::vector<int64_t> parse_list(const std::string& s) {
  std::vector<int64_t> v;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) v.push_back(std::stoll(item));
  return v;
}

}  // namespace cake::bench
