"""Every kind of plan cake launches on this device (plan_kinds.py), each on a
problem off whole tiles, against fp64 on fresh random inputs into a poisoned out;
then, through cake.set_num_sms, the kinds that only fewer SMs give (H100 PCIe's
114, H20's 78, half an H200)."""

from __future__ import annotations

import pytest
import torch

import cake
from conftest import GPU_SKIP_REASON
from plan_kinds import cases, kind, regions
from reference import make_problem, run_and_check

pytestmark = pytest.mark.gpu

# The device's kinds (its SMs and DRAM bandwidth) where there is one; elsewhere the
# 132-SM list, skipped.
_INFO = cake.gemm.device_info() if GPU_SKIP_REASON is None else {"num_sms": 132, "dram_gbps": 0}
_SMS, _DRAM = _INFO["num_sms"], _INFO["dram_gbps"]
CASES = cases("sm90", _SMS, _DRAM)
FEWER = [(sms, c) for sms in (114, 78, 66) if sms < _SMS
         for c in cases("sm90", sms, _DRAM) if c.kind not in {x.kind for x in CASES}]


def case_id(c, sms=None):
    return (f"{sms}sms-" if sms else "") + f"{c.kind.replace(' ', '_')}-M{c.M}-N{c.N}-K{c.K}-r{c.r}"


def run_case(c, i, sms):
    assert cake.get_num_sms() == sms
    assert kind(c.M, c.N, c.K, c.r, "sm90", sms, _DRAM) == c.kind
    run_and_check(make_problem(c.M, c.N, c.K, r=c.r, bias=i % 2 == 0, seed=5000 + i), f"({c.kind}, r={c.r})")
    torch.cuda.empty_cache()


@pytest.mark.parametrize("i", range(len(CASES)), ids=[case_id(c) for c in CASES])
def test_every_plan_kind(i):
    run_case(CASES[i], i, _SMS)


@pytest.mark.parametrize("i", range(len(FEWER)), ids=[case_id(c, sms) for sms, c in FEWER])
def test_every_plan_kind_on_fewer_sms(i):
    sms, c = FEWER[i]
    cake.set_num_sms(sms)
    try:
        run_case(c, 7000 + i, sms)
    finally:
        cake.set_num_sms(None)


def test_a_chain_of_regions_on_three_sms():
    """On 3 SMs the rest of a cut is cut again: five launches of 192 x 128 cover out."""
    M, N, K, r = 511, 1280, 8192, 64
    assert [p["head_n"] for p in regions(M, N, K, r, "sm90", 3, _DRAM)] == [256, 256, 256, 256, 256]
    cake.set_num_sms(3)
    try:
        run_and_check(make_problem(M, N, K, r=r, bias=True, seed=3), "(3 SMs, five regions)")
    finally:
        cake.set_num_sms(None)
