// What every architecture's plan shares: the grid of output tiles over persistent
// workers. Internal to the plan (src/plan/*.cpp).
#pragma once

#include <algorithm>
#include <cstdint>

#include "cake/plan.h"

namespace cake::planner {

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// tile_m x tile_n tiles of an M x N out, dealt in waves to `workers` persistent
// workers of ctas_per_worker CTAs each (a CTA, or a CTA pair).
inline void set_grid(Plan& p, int64_t tile_m, int64_t tile_n, int64_t M, int64_t N, int64_t workers,
                     int ctas_per_worker) {
  p.tile_m = static_cast<int>(tile_m);
  p.tile_n = static_cast<int>(tile_n);
  p.tiles_m = ceil_div(M, tile_m);
  p.tiles_n = ceil_div(N, tile_n);
  p.tiles = p.tiles_m * p.tiles_n;
  p.workers = workers;
  p.waves = ceil_div(p.tiles, workers);
  p.grid = static_cast<int>(std::min(p.tiles, workers) * ctas_per_worker);
}

}  // namespace cake::planner
