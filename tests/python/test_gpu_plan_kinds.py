"""Every kind of plan cake launches on this device (plan_kinds.py), each on a
problem off whole tiles, against fp64 on fresh random inputs into a poisoned out."""

from __future__ import annotations

import pytest
import torch

import cake
from conftest import GPU_SKIP_REASON
from plan_kinds import cases, kind
from reference import make_problem, run_and_check

pytestmark = pytest.mark.gpu

# The device's kinds where there is one; elsewhere the 132-SM list, skipped.
_SMS = cake.gemm.device_info()["num_sms"] if GPU_SKIP_REASON is None else 132
CASES = cases("sm90", _SMS)


@pytest.mark.parametrize("i", range(len(CASES)),
                         ids=[f"{c.kind.replace(' ', '_')}-M{c.M}-N{c.N}-K{c.K}-r{c.r}" for c in CASES])
def test_every_plan_kind(i):
    c = CASES[i]
    assert kind(c.M, c.N, c.K, c.r, "sm90", cake.gemm.device_info()["num_sms"]) == c.kind
    run_and_check(make_problem(c.M, c.N, c.K, r=c.r, bias=i % 2 == 0, seed=5000 + i), f"({c.kind}, r={c.r})")
    torch.cuda.empty_cache()
