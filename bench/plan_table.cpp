// cake_plan: what cake would launch, shape by shape, without a GPU.
//
// One line per problem: the plan's program on its region of out and, where the
// plan covers only part of it, the rest planned and launched after it the way
// the launcher does (src/sm90/launch.cpp), region by region. The lines are
// stable text, so that two builds' tables can be compared line by line
// (scripts/plan-diff). With cake_bench's experiment flags (--program, --split,
// --rows, --promote, --multicast, --raster, --one-region; forced.h) it lists what those
// forced runs launch instead.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cake/errors.h"
#include "cake/plan.h"
#include "forced.h"
#include "shapes.h"

namespace {

struct Options {
  cake::bench::ShapeSet shapes = cake::bench::grid_shapes();
  cake::Arch arch = cake::Arch::SM90;
  int sms = 132;
  int dram_gbps = 0;  // 0: unknown, planned as for the H200
  int64_t r = 128;
  cake::bench::Forcing forcing;  // SM90 experiments, as cake_bench's
};

void print_region(const cake::Plan& p, int64_t M, int64_t N) {
  std::printf("%s %lldx%lld: %dx%d tiles %lld waves %lld split %d pairs %dx%d grid %d", cake::program_name(p.program),
              static_cast<long long>(M), static_cast<long long>(N), p.tile_m, p.tile_n,
              static_cast<long long>(p.tiles), static_cast<long long>(p.waves), p.split_k, p.cluster_m, p.cluster_n,
              p.grid);
  if (p.arch == cake::Arch::SM90) std::printf(" promote %d raster %d", p.promotion_k, p.raster_group);
}

// plan() at the board's DRAM bandwidth; plans from before that input take none
// (scripts/plan-diff builds this table against earlier plans too).
template <typename Dram>
cake::Plan plan_at(int64_t M, int64_t N, int64_t K, int64_t r, cake::Arch arch, int sms, Dram dram_gbps) {
  if constexpr (requires { cake::plan(M, N, K, r, arch, sms, dram_gbps); })
    return cake::plan(M, N, K, r, arch, sms, dram_gbps);
  else
    return cake::plan(M, N, K, r, arch, sms);
}

// The regions of one problem, as the launcher runs them.
void print_problem(const Options& o, int64_t M, int64_t N, int64_t K) {
  std::printf("%lld %lld %lld:", static_cast<long long>(M), static_cast<long long>(N), static_cast<long long>(K));
  if (o.forcing.any()) {
    try {
      std::string fallback;
      const cake::Plan p = o.forcing.plan(M, N, K, o.r, o.sms, &fallback);
      std::printf(" ");
      print_region(p, M, N);
      if (!fallback.empty()) std::printf(" (not the forced pairs: %s)", fallback.c_str());
    } catch (const cake::InvalidArgument& e) {
      std::printf(" cannot run: %s", e.what());
    }
    std::printf("\n");
    return;
  }
  for (int64_t m = M, n = N; m > 0 && n > 0;) {
    const cake::Plan p = plan_at(m, n, K, o.r, o.arch, o.sms, o.dram_gbps);
    std::printf(m == M && n == N ? " " : " | then ");
    print_region(p, p.head_m, p.head_n);
    if (p.head_m < m) m -= p.head_m;
    else n -= p.head_n;
  }
  std::printf("\n");
}

[[noreturn]] void usage(int code) {
  std::printf(
      "usage: cake_plan [--grid | --quick | --serving | --dense | --decode] [--m 1,16,...] [--nk N,K,N,K...] [--shape M,N,K]\n"
      "                 [--sms 132] [--dram-gbps 0] [--arch sm90|sm100|sm103] [--r 128]\n"
      "                 [--program NAME] [--split S] [--rows R] [--promote 64|128] [--multicast 1|2|m|n] [--raster G] [--one-region]\n"
      "                 (SM90: what cake_bench launches with the same experiment flags)\n"
      "One line per problem: each region's program, region, tile, tiles, waves, split-K, CTA pairs, grid,\n"
      "promotion depth and raster group, in the order the launcher runs them. Default: the benchmark's\n"
      "grid on 132 SMs, DRAM bandwidth unknown (0: planned as for the H200).\n");
  std::exit(code);
}

}  // namespace

int main(int argc, char** argv) {
  using cake::bench::parse_list;
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) usage(2);
      return argv[++i];
    };
    if (arg == "--grid") o.shapes = cake::bench::grid_shapes();
    else if (arg == "--quick") o.shapes = cake::bench::quick_shapes();
    else if (arg == "--serving") o.shapes = cake::bench::serving_shapes();
    else if (arg == "--dense") o.shapes = cake::bench::dense_shapes();
    else if (arg == "--decode") o.shapes = cake::bench::decode_shapes();
    else if (arg == "--m") o.shapes.Ms = parse_list(next());
    else if (arg == "--nk") {
      o.shapes.NKs.clear();
      const auto v = parse_list(next());
      for (size_t j = 0; j + 1 < v.size(); j += 2) o.shapes.NKs.push_back({v[j], v[j + 1]});
    } else if (arg == "--shape") {
      const auto v = parse_list(next());
      if (v.size() != 3) usage(2);
      o.shapes = {{v[0]}, {{v[1], v[2]}}};
    } else if (arg == "--sms") o.sms = std::stoi(next());
    else if (arg == "--dram-gbps") o.dram_gbps = std::stoi(next());
    else if (arg == "--r") o.r = std::stoll(next());
    else if (arg == "--arch") {
      const auto arch = cake::parse_arch(next());
      if (!arch) usage(2);
      o.arch = *arch;
    } else if (o.forcing.parse(argc, argv, i)) continue;
    else usage(arg == "--help" || arg == "-h" ? 0 : 2);
  }
  if (o.forcing.any() && o.arch != cake::Arch::SM90) usage(2);
  try {
    for (const auto& [N, K] : o.shapes.NKs)
      for (int64_t M : o.shapes.Ms) print_problem(o, M, N, K);
  } catch (const cake::InvalidArgument& e) {
    std::fprintf(stderr, "cake_plan: %s\n", e.what());
    return 2;
  }
  return 0;
}
