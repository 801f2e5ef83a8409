"""The kinds of plan the GPU suite runs (plan_kinds.py), checked on the CPU: the
sweep reaches every SM90 program, and each case is what it says it is."""

from __future__ import annotations

import re

from plan_kinds import SWEEP_K, SWEEP_M, SWEEP_N, cases, kind, programs

# Every program the SM90 plan can choose (include/cake/plan.h). A program added
# there must be reached by the sweep too, so that the GPU suite runs it as planned.
SM90_PROGRAMS = {
    "128x128", "192x128", "swap_128x64", "swap_64x64", "swap_64x16", "swap_64x32", "swap_64x128",
    "swap_192x128", "64x96", "swap_128x80", "swap_128x96", "swap_64x80", "swap_64x96", "128x112", "128x144",
    "128x80", "192x112", "128x160", "swap_128x160", "256x128",
}


def test_the_sweep_reaches_every_sm90_program():
    assert programs(cases("sm90", 132)) == SM90_PROGRAMS
    # An H100 SXM's DRAM (3352 GB/s) adds CTA pairs, no program.
    assert programs(cases("sm90", 132, 3352)) == SM90_PROGRAMS


def test_each_case_has_its_kind_off_whole_tiles():
    found = cases("sm90", 132)
    assert len(found) >= 100, f"only {len(found)} kinds of plan on 132 SMs"
    assert len({c.kind for c in found}) == len(found)
    for c in found:
        assert kind(c.M, c.N, c.K, c.r, "sm90", 132) == c.kind
        assert c.M not in SWEEP_M or c.N not in SWEEP_N or c.K not in SWEEP_K, c
    # Tails in every dimension on most kinds (not on those a row more or less moves:
    # 2..64 tokens' splits, two-region cuts at M = 4096, 256 x 128 tiles at short K).
    assert sum(c.M not in SWEEP_M and c.N not in SWEEP_N and c.K not in SWEEP_K for c in found) >= 0.89 * len(found)


def test_cases_cover_both_region_cuts_and_every_rank():
    found = cases("sm90", 132)
    assert any(c.kind.endswith("[rows]") for c in found) and any(c.kind.endswith("[cols]") for c in found)
    assert any(re.search(r" s([2-9]|\d\d) ", c.kind) for c in found), "no split-K plan"
    assert any(" c2x1 " in c.kind or " c1x2 " in c.kind for c in found), "no CTA pairs"
    for r in (0, 32, 64, 128):
        assert sum(c.r == r for c in found) >= 10, f"rank {r} on fewer than 10 kinds"
