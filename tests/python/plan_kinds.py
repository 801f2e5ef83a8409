"""Every kind of plan cake launches on a device, with one problem for each.

A plan's kind is what the launcher runs for a problem, region by region: each
region's program, split-K, CTA pairs, promotion depth and raster group, and
whether a second region takes rows or columns (cake.plan() is a pure function
of the problem and the device's SM count and DRAM bandwidth, so this needs no
GPU). Walking a sweep of shapes from decode to M = 8192 finds the kinds; each
gets the smallest problem that has it, moved off whole tiles in
every dimension it can be (M +- 1, N +- 8, K +- 16) without changing its kind,
and a LoRA rank (or none) that keeps it. The GPU test runs them all against
fp64, so that every path the plan can take is shown correct on the device, not
only the shapes someone thought of.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import cake

# Decode, past decode and large batches; the serving models' N and K (bench/shapes.h's
# dense sweep), and small N and K for the edges.
SWEEP_M = (1, 2, 8, 16, 17, 32, 33, 48, 64, 65, 72, 80, 96, 112, 128, 136, 144, 160, 176, 192, 208, 224, 256,
           288, 320, 352, 384, 448, 512, 576, 640, 768, 896, 1024, 1280, 1536, 1792, 2048, 2560, 3072, 4096,
           6144, 8192)
SWEEP_N = (8, 136, 512, 768, 1024, 1280, 1536, 1792, 2048, 2304, 2560, 3072, 3584, 3840, 4096, 4608, 5120,
           6144, 6400, 7168, 8192, 10240, 12288, 13824, 14336, 18944, 28672, 37888)
SWEEP_K = (16, 48, 128, 512, 1024, 2048, 3584, 4096, 6144, 7168, 8192, 12288, 14336, 16384, 18944)
# The plan weighs the adapter's work, so the kinds are found with it off and at
# the largest rank; each case then takes the first of these that keeps its kind.
RANKS = (128, 64, 32, 0)


class Case(NamedTuple):
    kind: str
    M: int
    N: int
    K: int
    r: int


def regions(M: int, N: int, K: int, r: int, arch: str, num_sms: int, dram_gbps: int = 0) -> list:
    """The plans the launcher runs for one problem, in order (rows or columns past
    a plan's head run as a problem of their own)."""
    out = []
    while True:
        p = cake.plan(M, N, K, r, arch=arch, num_sms=num_sms, dram_gbps=dram_gbps)
        out.append(p)
        if p["head_m"] < M:
            M -= p["head_m"]
        elif p["head_n"] < N:
            N -= p["head_n"]
        else:
            return out


@functools.lru_cache(maxsize=None)
def kind(M: int, N: int, K: int, r: int, arch: str, num_sms: int, dram_gbps: int = 0) -> str:
    """'192x128 s1 c1x2 k128 g8 + 128x112 s1 c1x1 k128 g8 [cols]': each region's
    program, split-K, cluster, promotion depth and raster group."""
    rs = regions(M, N, K, r, arch, num_sms, dram_gbps)
    text = " + ".join(f"{p['program'].replace('fp8_hopper_', '')} s{p['split_k']} c{p['cluster_m']}x{p['cluster_n']}"
                      f" k{p.get('promotion_k', 0)} g{p['raster_group']}" for p in rs)
    if len(rs) > 1:
        text += " [rows]" if rs[0]["head_m"] < M else " [cols]"
    return text


def _off_whole_tiles(M, N, K, r, k, arch, num_sms, dram_gbps):
    """The problem moved by a row, 8 columns and 16 K where that keeps kind k; as
    many of the three as can be moved otherwise."""
    for dm in (-1, 1, 0):
        for dn in (-8, 8, 0):
            for dk in (-16, 16, 0):
                m, n, kk = M + dm, N + dn, K + dk
                if m >= 1 and n >= 8 and kk >= 16 and kind(m, n, kk, r, arch, num_sms, dram_gbps) == k:
                    return m, n, kk
    return M, N, K


@functools.lru_cache(maxsize=None)
def cases(arch: str = "sm90", num_sms: int = 132, dram_gbps: int = 0) -> tuple:
    """One Case per kind of plan, sorted by kind."""
    smallest = {}
    for r in (0, RANKS[0]):
        for M in SWEEP_M:
            for N in SWEEP_N:
                for K in SWEEP_K:
                    k = kind(M, N, K, r, arch, num_sms, dram_gbps)
                    if k not in smallest or M * N * K < smallest[k][0]:
                        smallest[k] = (M * N * K, M, N, K, r)
    out = []
    for i, k in enumerate(sorted(smallest)):
        _, M, N, K, r = smallest[k]
        M, N, K = _off_whole_tiles(M, N, K, r, k, arch, num_sms, dram_gbps)
        # Rotate the ranks over the kinds, so that each rank and the base alone run
        # on about a quarter of them.
        for rank in RANKS[i % len(RANKS):] + RANKS[:i % len(RANKS)]:
            if kind(M, N, K, rank, arch, num_sms, dram_gbps) == k:
                r = rank
                break
        out.append(Case(k, M, N, K, r))
    return tuple(out)


def programs(case_list) -> set:
    """The programs the cases run (e.g. 'swap_64x16', '192x128')."""
    return {region.split()[0] for c in case_list for region in c.kind.split(" [")[0].split(" + ")}
