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
// Each tile is decoded when the CTA moves to it, the first on construction, which
// the kernel places before its grid-dependency wait (settle()): those integer
// divisions then overlap the previous kernel's tail instead of delaying the first
// load.
#pragma once

#include <cstdint>

#include "sm90/primitives.cuh"

namespace cake::sm90 {

struct TileScheduler {
  uint32_t tiles_p, tiles_q, group;  // the clusters' tiles along P and Q
  uint32_t next, stride;             // next: this CTA's tile index now
  uint32_t tp = 0, tq = 0;           // and that tile, decoded while valid()

  // pairs_p / pairs_q: CTAs per cluster tile along P / Q (multicast or 1);
  // cluster_ctas: split x multicast (one of them is 1).
  __device__ TileScheduler(uint32_t tiles_p_, uint32_t tiles_q_, uint32_t g, uint32_t pairs_p, uint32_t pairs_q,
                           uint32_t cluster_ctas)
      : tiles_p((tiles_p_ + pairs_p - 1) / pairs_p),
        tiles_q((tiles_q_ + pairs_q - 1) / pairs_q),
        group(g),
        next(blockIdx.x / cluster_ctas),
        stride(gridDim.x / cluster_ctas) {
    if (valid()) decode();
  }

  // Computed here, before what follows (the kernel's grid-dependency wait).
  __device__ void settle() {
    next = opaque(next);
    tp = opaque(tp);
    tq = opaque(tq);
  }

  __device__ uint32_t total() const { return tiles_p * tiles_q; }
  // A tile is left for this CTA: tp, tq.
  __device__ bool valid() const { return next < total(); }
  // Moves to this CTA's next tile and decodes it.
  __device__ void advance() {
    next += stride;
    if (valid()) decode();
  }
  // The current tile is this CTA's last.
  __device__ bool is_last() const { return next + stride >= total(); }

 private:
  __device__ void decode() {
    const uint32_t per_group = group * tiles_q;
    const uint32_t first_row = (next / per_group) * group;
    const uint32_t rows = min(group, tiles_p - first_row);
    const uint32_t local = next % per_group;
    tp = first_row + local % rows;
    tq = local / rows;
  }
};

}  // namespace cake::sm90
