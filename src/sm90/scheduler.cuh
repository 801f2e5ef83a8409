// Static persistent tile scheduler: cluster c takes tiles c, c + clusters, ...
// Split-K: the CTAs of a cluster share each tile, splitting its K loop. Multicast:
// a cluster's tile is `multicast` neighbouring tiles along Q (one P tile), or in
// the programs whose pairs share their Q tile along P, CTA i taking the i-th; past
// the operand's last tile it still runs (it loads none of that operand and its
// stores are clipped) so that it loads its slice of the shared tile for the
// others. The caller maps a cluster's tile to its CTA's.
// Tile indices run in a grouped raster: `group` consecutive tiles walk down the P
// dimension before stepping along Q, so CTAs resident at the same time share a
// narrow band of both operands in L2. The producer and the consumers of a CTA run
// the same sequence independently, so no scheduling state is shared.
#pragma once

#include <cstdint>

namespace cake::sm90 {

struct TileScheduler {
  uint32_t tiles_p, tiles_q, group;  // the clusters' tiles along P and Q
  uint32_t next, stride;

  // pairs_p / pairs_q: CTAs per cluster tile along P / Q (multicast or 1);
  // cluster_ctas: split x multicast (one of them is 1).
  __device__ TileScheduler(uint32_t tp, uint32_t tq, uint32_t g, uint32_t pairs_p, uint32_t pairs_q,
                           uint32_t cluster_ctas)
      : tiles_p((tp + pairs_p - 1) / pairs_p),
        tiles_q((tq + pairs_q - 1) / pairs_q),
        group(g),
        next(blockIdx.x / cluster_ctas),
        stride(gridDim.x / cluster_ctas) {}

  __device__ uint32_t total() const { return tiles_p * tiles_q; }

  // The tile after `t` for this CTA, or false when none is left.
  __device__ bool get(uint32_t& tp, uint32_t& tq) {
    if (next >= total()) return false;
    const uint32_t t = next;
    next += stride;
    const uint32_t per_group = group * tiles_q;
    const uint32_t first_p = (t / per_group) * group;
    const uint32_t rows = min(group, tiles_p - first_p);
    const uint32_t local = t % per_group;
    tp = first_p + local % rows;
    tq = local / rows;
    return true;
  }

  __device__ bool is_last() const { return next >= total(); }
};

}  // namespace cake::sm90
