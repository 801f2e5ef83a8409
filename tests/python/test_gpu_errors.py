"""The contract on a real device: each bad call raises ValueError naming the rule,
launches nothing and leaves the caller's out untouched."""

from __future__ import annotations

import pytest
import torch

import cake
from reference import make_problem

pytestmark = pytest.mark.gpu


def fp8(*shape):
    return torch.randn(*shape, device="cuda").to(torch.float8_e4m3fn)


def bf16(*shape):
    return torch.randn(*shape, device="cuda", dtype=torch.bfloat16)


def misaligned_fp8(M, K):
    return torch.zeros(M * K + 16, dtype=torch.float8_e4m3fn, device="cuda")[1:1 + M * K].view(M, K)


M, N, K, R = 64, 128, 256, 64

# (name, change to the valid arguments, built on the device inside the test, message)
CASES = [
    ("a dtype", lambda p: dict(a=p.a.to(torch.bfloat16)), "a must be float8_e4m3fn"),
    ("b K", lambda p: dict(b=fp8(N, K + 16)), "b must be [N, K] with the K of a"),
    ("rank", lambda p: dict(a=p.a.view(1, M, K)), "a must be 2-D"),
    ("K rule", lambda p: dict(a=fp8(M, 24), b=fp8(N, 24)), "K must be a positive multiple of 16 on sm90 (got K=24)"),
    ("N rule", lambda p: dict(b=fp8(100, K), lora_b=bf16(100, R), bias=bf16(100)),
     "N must be a positive multiple of 8 (got N=100)"),
    ("r rule", lambda p: dict(d=bf16(M, 48), lora_b=bf16(N, 48)), "must be one of 32, 64, 128 (got r=48)"),
    ("scale numel", lambda p: dict(a_scale=torch.ones(2, device="cuda")), "a_scale must be a one-element fp32 tensor"),
    ("scale dtype", lambda p: dict(lora_scale=torch.ones(1, device="cuda", dtype=torch.float16)),
     "lora_scale must be float32"),
    ("scale on cpu", lambda p: dict(b_scale=torch.ones(1)), "b_scale must be on a CUDA device"),
    ("lora_scale without d", lambda p: dict(d=None), "d and lora_b are required"),
    ("d shape", lambda p: dict(d=bf16(M + 1, R)), "d must be [M, r]"),
    ("lora_b transposed", lambda p: dict(lora_b=bf16(R, N)), "lora_b must be [N, r]"),
    ("lora_b not contiguous", lambda p: dict(lora_b=bf16(R, N).T), "lora_b must be contiguous"),
    ("a column-major", lambda p: dict(a=fp8(K, M).T), "a must be row-major"),
    ("misaligned a", lambda p: dict(a=misaligned_fp8(M, K)), "a must be 16-byte aligned"),
    ("bias shape", lambda p: dict(bias=bf16(N + 8)), "bias must be [N]"),
    ("lora_scale float", lambda p: dict(lora_scale=0.5), "lora_scale must be a torch.Tensor"),
]


@pytest.mark.parametrize("name,change,message", CASES, ids=[c[0] for c in CASES])
def test_rejected_without_writing(name, change, message):
    p = make_problem(M, N, K, r=R, bias=True, seed=1)
    kwargs = dict(a=p.a, b=p.b, a_scale=p.a_scale, b_scale=p.b_scale, d=p.d, lora_b=p.lora_b,
                  lora_scale=p.lora_scale, bias=p.bias)
    kwargs.update(change(p))
    out = torch.full((kwargs["a"].shape[0], kwargs["b"].shape[0]), 3.0, dtype=torch.bfloat16, device="cuda")
    before = out.clone()
    args = [kwargs.pop(k) for k in ("a", "b", "a_scale", "b_scale", "d", "lora_b", "lora_scale")]
    with pytest.raises(ValueError) as e:
        cake.mm_fp8_lora(*args, bias=kwargs["bias"], out=out)
    assert message in str(e.value), str(e.value)
    torch.cuda.synchronize()
    assert torch.equal(out, before)


def test_out_rules():
    p = make_problem(64, 128, 256, r=32, seed=2)
    for out, message in [
        (torch.empty(64, 136, dtype=torch.bfloat16, device="cuda"), "out must be [M, N] = [64, 128]"),
        (torch.empty(64, 128, dtype=torch.float16, device="cuda"), "out must be bfloat16"),
        (torch.empty(128, 64, dtype=torch.bfloat16, device="cuda").T, "out must be contiguous"),
    ]:
        with pytest.raises(ValueError) as e:
            cake.mm_fp8_lora(*p.args(), out=out)
        assert message in str(e.value), str(e.value)


def test_out_overlapping_an_input():
    M, N, K = 64, 64, 128
    p = make_problem(M, N, K, r=64, seed=3)
    # d is [64, 64] bf16: the same bytes as an out of [64, 64] bf16.
    with pytest.raises(ValueError, match="out must not overlap any input"):
        cake.mm_fp8_lora(*p.args(), out=p.d)


def test_options():
    p = make_problem(64, 128, 256, r=32, seed=4)
    with pytest.raises(ValueError, match='backend must be "cake" or "auto"'):
        cake.mm_fp8_lora(*p.args(), backend="cublas")
    with pytest.raises(ValueError, match="enable_pdl must be None or True"):
        cake.mm_fp8_lora(*p.args(), enable_pdl=False)
    with pytest.raises(ValueError, match="out_dtype must be torch.bfloat16"):
        cake.mm_fp8_lora(*p.args(), out_dtype=torch.float16)
    # The accepted spellings run.
    cake.mm_fp8_lora(*p.args(), backend="auto", enable_pdl=True)


def test_m_times_n_limit_on_sm90():
    # M * N = 2**32 + 65536 > 2**32: refused before anything is launched.
    M, N, K = 65537, 65536, 16
    a, b = fp8(M, K), fp8(N, K)
    one = torch.ones(1, device="cuda")
    out = torch.empty(M, N, dtype=torch.bfloat16, device="cuda")
    with pytest.raises(ValueError, match=r"M \* N must be <= 2\*\*32 on sm90"):
        cake.mm_fp8(a, b, one, one, out=out)


def test_lora_scale_none_ignores_d_entirely():
    p = make_problem(64, 128, 256, r=32, seed=5)
    # Garbage d / lora_b (wrong dtype, shape, device) are not looked at.
    out = cake.mm_fp8_lora(p.a, p.b, p.a_scale, p.b_scale, torch.zeros(3), "not a tensor", None)
    base = cake.mm_fp8(p.a, p.b, p.a_scale, p.b_scale)
    assert torch.equal(out.view(torch.int16), base.view(torch.int16))


def test_sm_limit_rules():
    all_sms = cake.gemm.device_info()["num_sms"]
    assert cake.get_num_sms() == all_sms
    for bad in (-1, all_sms + 1):
        with pytest.raises(ValueError, match=rf"set_num_sms: num_sms must be between 1 and device \d+'s "
                                             rf"{all_sms} SMs, or 0 for all of them \(got {bad}\)"):
            cake.set_num_sms(bad)
        assert cake.get_num_sms() == all_sms
    try:
        cake.set_num_sms(all_sms // 2)
        assert cake.get_num_sms() == all_sms // 2
        assert cake.plan(4096, 4096, 4096, 128)["workers"] <= all_sms // 2
        assert cake.plan(4096, 4096, 4096, 128) == cake.plan(4096, 4096, 4096, 128, num_sms=all_sms // 2)
    finally:
        cake.set_num_sms(None)
    assert cake.get_num_sms() == all_sms
