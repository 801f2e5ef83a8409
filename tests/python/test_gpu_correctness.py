"""The SM90 programs against fp64 references, on fresh random inputs.

Every call writes into an output poisoned with NaN first, so an element the
program fails to write fails the test.
"""

from __future__ import annotations

import itertools

import pytest
import torch

import cake
from reference import FROBENIUS_BAR, FROBENIUS_MIN_ELEMENTS, accuracy, make_problem, poisoned, reference, run_and_check

pytestmark = pytest.mark.gpu


GRID_M = [1, 2, 7, 64, 65, 128, 1000, 4096]
GRID_N = [8, 24, 136, 4096, 4104]
GRID_K = [16, 48, 128, 4096, 16400]
RANKS = [32, 64, 128]


GRID = list(itertools.product(GRID_M, GRID_N, GRID_K))


@pytest.mark.parametrize("M,N,K", GRID, ids=[f"M{m}-N{n}-K{k}" for m, n, k in GRID])
def test_grid(M, N, K):
    i = GRID.index((M, N, K))
    r = RANKS[i % 3]
    bias = i % 2 == 0
    run_and_check(make_problem(M, N, K, r=r, bias=bias, seed=1000 + i), f"(r={r}, bias={bias})")


@pytest.mark.parametrize("r", RANKS)
@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("M,N,K", [(65, 136, 4096), (1, 4104, 16400), (300, 264, 1040), (300, 6152, 400),
                                   (500, 6152, 400), (7, 28680, 4096)])
def test_every_rank_with_and_without_bias(M, N, K, r, bias):
    run_and_check(make_problem(M, N, K, r=r, bias=bias, seed=7 * M + r))


@pytest.mark.parametrize("M,N,K", [(1, 8, 16), (64, 4096, 4096), (1000, 136, 48)])
def test_base_only(M, N, K):
    p = make_problem(M, N, K, r=0, bias=True, seed=11)
    out = poisoned(M, N)
    cake.mm_fp8(p.a, p.b, p.a_scale, p.b_scale, bias=p.bias, out=out)
    acc = accuracy(out, reference(p))
    assert acc.worst_excess <= 1.0
    if M * N >= FROBENIUS_MIN_ELEMENTS:
        assert acc.ratio <= FROBENIUS_BAR


@pytest.mark.slow
@pytest.mark.parametrize("K", [1024, 4096, 16384, 65536])
def test_accuracy_at_large_k(K):
    acc = run_and_check(make_problem(256, 1024, K, r=128, bias=True, seed=K))
    print(f"K={K}: rel Frobenius {acc.rel_frobenius:.4e}, floor {acc.floor:.4e}, ratio {acc.ratio:.4f}")


@pytest.mark.parametrize("M", [16, 300])
def test_zero_adapter_is_bitwise_the_base(M):
    N, K, r = 264, 1040, 64
    p = make_problem(M, N, K, r=r, bias=True, seed=M)
    p.d.fill_(float("nan"))
    p.lora_b.fill_(float("inf"))
    base = cake.mm_fp8(p.a, p.b, p.a_scale, p.b_scale, bias=p.bias, out=poisoned(M, N))
    off = cake.mm_fp8_lora(p.a, p.b, p.a_scale, p.b_scale, p.d, p.lora_b, None, bias=p.bias,
                           out=poisoned(M, N))
    outs = [base, off]
    for zero in (0.0, -0.0):
        s = torch.tensor([zero], device="cuda")
        outs.append(cake.mm_fp8_lora(p.a, p.b, p.a_scale, p.b_scale, p.d, p.lora_b, s,
                                     bias=p.bias, out=poisoned(M, N)))
    assert not torch.isnan(base).any()
    for o in outs[1:]:
        assert torch.equal(o.view(torch.int16), base.view(torch.int16))


def test_nan_in_a_poisons_its_row_only():
    p = make_problem(130, 136, 256, r=32, seed=3)
    p.a[5, 17] = float("nan")
    out = cake.mm_fp8_lora(*p.args(), bias=p.bias)
    assert torch.isnan(out[5]).all()
    rest = torch.cat([out[:5], out[6:]])
    assert torch.isfinite(rest).all()


@pytest.mark.parametrize("M,N,K,r", [(1000, 4096, 4096, 128), (8, 4104, 16400, 32)])
def test_deterministic(M, N, K, r):
    p = make_problem(M, N, K, r=r, bias=True, seed=5)
    first = cake.mm_fp8_lora(*p.args(), bias=p.bias, out=poisoned(M, N))
    second = cake.mm_fp8_lora(*p.args(), bias=p.bias, out=poisoned(M, N))
    assert torch.equal(first.view(torch.int16), second.view(torch.int16))


def test_padded_row_pitch():
    # a and b as views of wider buffers: rows K + 32 bytes apart.
    M, N, K = 70, 136, 256
    p = make_problem(M, N, K, r=64, bias=False, seed=9)
    wide_a = torch.zeros(M, K + 32, dtype=torch.float8_e4m3fn, device="cuda")
    wide_b = torch.zeros(N, K + 32, dtype=torch.float8_e4m3fn, device="cuda")
    wide_a[:, :K] = p.a
    wide_b[:, :K] = p.b
    p.a, p.b = wide_a[:, :K], wide_b[:, :K]
    run_and_check(p)


def test_allocates_out_on_the_current_stream():
    p = make_problem(33, 64, 128, r=32, seed=2)
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        out = cake.mm_fp8_lora(*p.args())
    s.synchronize()
    assert out.shape == (33, 64) and out.dtype == torch.bfloat16
    assert accuracy(out, reference(p)).worst_excess <= 1.0


def test_plan_on_this_device():
    info = cake.gemm.device_info()
    assert info["arch"] == "sm90" and info["num_sms"] > 0
    assert cake.plan(1, 4096, 4096, 128)["program"] == "fp8_hopper_swap_64x16"
    decode = cake.plan(1, 28672, 4096, 128)
    assert decode["program"] == "fp8_hopper_swap_64x16"
    if info["num_sms"] == 132:  # 512 tiles of 56 weight rows, unsplit
        assert decode["tile_n"] == 56 and decode["split_k"] == 1
    assert cake.plan(1024, 4096, 4096, 128)["program"] == "fp8_hopper_128x128"
    assert cake.plan(4096, 4096, 4096, 128)["program"] == "fp8_hopper_192x128"
    assert cake.plan(4096, 4096, 4096, 128)["workers"] == info["num_sms"]
    # The plan for this device takes its DRAM bandwidth as the runtime reports it
    # (an H100's or H200's HBM: 2 to 6 TB/s), whether asked for or left to the device.
    assert 1500 <= info["dram_gbps"] <= 6000, info
    here = cake.plan(512, 3584, 18944, 128)
    assert here == cake.plan(512, 3584, 18944, 128, arch="sm90", num_sms=cake.get_num_sms(),
                             dram_gbps=info["dram_gbps"])
    if cake.get_num_sms() == 132:  # one wave of 128 x 112: pairs on an H100 SXM, single on an H200
        assert here["program"] == "fp8_hopper_128x112" and here["waves"] == 1
        assert here["cluster_m"] == (2 if info["dram_gbps"] <= 4000 else 1)
