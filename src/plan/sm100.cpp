// The Blackwell plan (SM100 / SM103): the seed's rules for its three programs.
#include "plan/sm100.h"

#include <algorithm>

#include "plan/grid.h"
#include "plan/rules.h"

namespace cake::planner {

// SM100 / SM103, as the seed states it (docs/contract.md section 4):
//  - one CTA per SM, resident CTA pairs = num_sms / 2;
//  - the pair tile is 256 rows; its width is 256 when 256 x 256 tiles still give
//    every resident pair a tile, else 128 (more, narrower tiles for small problems);
//  - fp8_blackwell_l2_point: tiles >= 10 * pairs, K >= 16384 and the 4 x 4 raster
//    block is proper in the tile grid (fits, and is smaller in some dimension);
//  - fp8_blackwell_tile_m (SM103): those runs that also have at least 20 waves of
//    512 x 256 tiles over the resident pairs and K >= 32768;
//  - everything else: the static persistent program.
Plan plan_sm100(Arch arch, int64_t M, int64_t N, int64_t K, int num_sms) {
  Plan p{};
  p.arch = arch;
  const int64_t pairs = std::max<int64_t>(1, num_sms / 2);
  const int64_t wide_tiles = ceil_div(M, 256) * ceil_div(N, 256);
  const int64_t width = wide_tiles >= pairs ? 256 : 128;
  p.cluster_m = 2;
  p.tile_k = 128;
  set_grid(p, 256, width, M, N, pairs, 2);

  const bool block_fits = p.tiles_m >= kBlackwellRasterBlockM && p.tiles_n >= kBlackwellRasterBlockN;
  const bool block_proper =
      block_fits && (p.tiles_m > kBlackwellRasterBlockM || p.tiles_n > kBlackwellRasterBlockN);
  const bool l2_point = p.tiles >= 10 * pairs && K >= 16384 && block_proper;
  const int64_t waves_512 = ceil_div(ceil_div(M, 512) * ceil_div(N, 256), pairs);
  const bool tile_m = arch == Arch::SM103 && l2_point && waves_512 >= 20 && K >= 32768;

  if (tile_m) {
    p.program = Program::kBlackwellTileM;
    set_grid(p, 512, 256, M, N, pairs, 2);
  } else if (l2_point) {
    p.program = Program::kBlackwellL2Point;
  } else {
    p.program = Program::kBlackwellStatic;
  }
  if (l2_point) {
    p.scheduler = "dynamic";
    p.raster = "blocked";
    p.raster_block_m = kBlackwellRasterBlockM;
    p.raster_block_n = kBlackwellRasterBlockN;
  } else {
    p.scheduler = "static_persistent";
    p.raster = "grouped";
    p.raster_group = 1;
  }
  p.head_m = M;
  p.head_n = N;
  return p;
}

}  // namespace cake::planner
