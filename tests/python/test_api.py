"""The Python layer on the CPU: signature, contract messages, plan, custom op, layers."""

from __future__ import annotations

import inspect

import pytest
import torch

import cake


def test_signature_is_the_seed():
    sig = inspect.signature(cake.gemm.mm_fp8_lora)
    assert list(sig.parameters) == ["a", "b", "a_scale", "b_scale", "d", "lora_b", "lora_scale", "bias", "out",
                                    "out_dtype", "backend", "enable_pdl"]
    kinds = {n: p.kind for n, p in sig.parameters.items()}
    assert all(kinds[n] == inspect.Parameter.KEYWORD_ONLY for n in ["bias", "out", "out_dtype", "backend", "enable_pdl"])
    defaults = {n: p.default for n, p in sig.parameters.items()}
    assert defaults["d"] is None and defaults["lora_b"] is None and defaults["lora_scale"] is None
    assert defaults["out_dtype"] is torch.bfloat16 and defaults["backend"] == "cake" and defaults["enable_pdl"] is None
    assert cake.mm_fp8_lora is cake.gemm.mm_fp8_lora and cake.mm_fp8 is cake.gemm.mm_fp8
    assert list(inspect.signature(cake.mm_fp8).parameters) == ["a", "b", "a_scale", "b_scale", "bias", "out",
                                                               "out_dtype", "backend", "enable_pdl"]
    for text in ["lora_scale", "bitwise identical", "multiple of 8", "ValueError", "CUDA-graph"]:
        assert text in cake.mm_fp8_lora.__doc__


def cpu_args(M=4, N=8, K=32, r=32):
    f8 = torch.float8_e4m3fn
    one = torch.ones(1)
    return dict(a=torch.zeros(M, K, dtype=f8), b=torch.zeros(N, K, dtype=f8), a_scale=one, b_scale=one,
                d=torch.zeros(M, r, dtype=torch.bfloat16), lora_b=torch.zeros(N, r, dtype=torch.bfloat16),
                lora_scale=one)


@pytest.mark.parametrize("change,message", [
    (dict(a=torch.zeros(4, 32)), "mm_fp8_lora: a must be float8_e4m3fn (got float32)"),
    (dict(a=torch.zeros(2, 4, 32, dtype=torch.float8_e4m3fn)), "a must be 2-D [M, K] (got 3-D [2, 4, 32])"),
    (dict(lora_scale=0.5), "lora_scale must be a torch.Tensor (got float)"),
    (dict(), "a must be on a CUDA device (got cpu)"),
])
def test_contract_messages(change, message):
    # On the CPU the rules of `a` (checked first) are reachable; the others are
    # covered by ctest (tests/cpp/test_contract.cpp) and the GPU suite.
    kw = cpu_args()
    kw.update(change)
    with pytest.raises(ValueError) as e:
        cake.mm_fp8_lora(**kw)
    assert message in str(e.value)


def test_options_are_checked():
    kw = cpu_args()
    with pytest.raises(ValueError, match='backend must be "cake" or "auto"'):
        cake.mm_fp8_lora(**kw, backend="cublas")
    with pytest.raises(ValueError, match="enable_pdl must be None or True"):
        cake.mm_fp8_lora(**kw, enable_pdl=False)
    with pytest.raises(ValueError, match="out_dtype must be torch.bfloat16"):
        cake.mm_fp8_lora(**kw, out_dtype=torch.float16)


def test_out_is_untouched_on_error():
    kw = cpu_args()
    out = torch.full((4, 8), 7.0, dtype=torch.bfloat16)
    with pytest.raises(ValueError):
        cake.mm_fp8_lora(**kw, out=out)
    assert torch.all(out == 7.0)


def test_plan_is_pure_and_queryable():
    p = cake.plan(1, 2048, 4096, 128, arch="sm90", num_sms=132)
    assert p["program"] == "fp8_hopper_swap_64x16" and p["swap_ab"] and p["split_k"] == 2
    assert cake.plan(1, 4096, 4096, 128, arch="sm90", num_sms=132)["split_k"] == 1
    assert cake.plan(64, 4096, 4096, 128, arch="sm90", num_sms=132)["program"] == "fp8_hopper_swap_64x64"
    # Wide weights: 512 tiles of 56 weight rows (narrower than wgmma's 64) on all 132 SMs.
    decode = cake.plan(1, 28672, 4096, 128, arch="sm90", num_sms=132)
    assert decode["program"] == "fp8_hopper_swap_64x16" and decode["split_k"] == 1 and decode["grid"] == 132
    assert decode["tile_n"] == 56 and decode["tiles"] == 512
    assert cake.plan(16, 6144, 4096, 128, arch="sm90", num_sms=132)["tile_n"] == 48
    assert cake.plan(64, 4096, 4096, 128, arch="sm90", num_sms=132)["tile_n"] == 64
    # FP8 partial sums promoted into fp32 every 64 K, every 128 K from K = 2048 on.
    assert cake.plan(512, 4096, 2032, 128, arch="sm90", num_sms=132)["promotion_k"] == 64
    assert cake.plan(512, 4096, 2048, 128, arch="sm90", num_sms=132)["promotion_k"] == 128
    assert cake.plan(512, 4096, 4096, 128, arch="sm90", num_sms=132)["promotion_k"] == 128
    assert cake.plan(1024, 4096, 4096, 128, arch="sm90", num_sms=132)["program"] == "fp8_hopper_128x128"
    assert cake.plan(4096, 4096, 4096, 128, arch="sm90", num_sms=132)["program"] == "fp8_hopper_192x128"
    # Many waves of large tiles: CTA pairs along N share their tile of a by TMA multicast.
    paired = cake.plan(4096, 4096, 4096, 128, arch="sm90", num_sms=132)
    assert paired["cluster_n"] == 2 and paired["cluster_m"] == 1
    assert cake.plan(512, 4096, 4096, 128, arch="sm90", num_sms=132)["cluster_n"] == 1
    # Two row regions where the last wave of 192 x 128 tiles would be partly idle:
    # the plan covers rows [0, head_m), the rest is a problem of its own.
    regions = cake.plan(3072, 2560, 8192, 128, arch="sm90", num_sms=132)
    assert regions["program"] == "fp8_hopper_192x128" and regions["head_m"] == 2496 and regions["waves"] == 2
    assert cake.plan(512, 4096, 4096, 128, arch="sm90", num_sms=132)["head_m"] == 512
    # ... and two column regions for the turned 192 x 128 tiles (M = 512, N = 28672).
    columns = cake.plan(512, 28672, 4096, 128, arch="sm90", num_sms=132)
    assert columns["program"] == "fp8_hopper_swap_192x128" and columns["head_n"] == 25344
    assert columns["head_m"] == 512 and columns["waves"] == 4
    assert regions["head_n"] == 2560
    # The board's DRAM bandwidth: on an H100 SXM's (at most 4000 GB/s) one wave of
    # 128 x 112 tiles at long K runs in CTA pairs sharing the weight tile; on an
    # H200's, or unknown (0, the default when arch and num_sms are given), single.
    long_k = [cake.plan(512, 3584, 18944, 128, arch="sm90", num_sms=132, dram_gbps=g) for g in (None, 0, 4916, 3352)]
    assert {p["program"] for p in long_k} == {"fp8_hopper_128x112"}
    assert [p["cluster_m"] for p in long_k] == [1, 1, 1, 2]
    assert all(p["tiles"] == 128 and p["waves"] == 1 and p["grid"] == 128 for p in long_k)
    with pytest.raises(ValueError, match="dram_gbps >= 0"):
        cake.plan(1, 8, 16, 0, arch="sm90", num_sms=132, dram_gbps=-1)
    assert list(inspect.signature(cake.plan).parameters) == ["M", "N", "K", "r", "arch", "num_sms", "dram_gbps"]
    assert cake.plan(1, 4096, 4096, 128, arch="sm100", num_sms=148)["program"] == "fp8_blackwell_static"
    big = cake.plan(512 * 39, 256 * 37, 32768, 128, arch="sm103", num_sms=148)
    assert big["program"] == "fp8_blackwell_tile_m" and big["tile_m"] == 512 and big["scheduler"] == "dynamic"
    assert cake.plan(512 * 39, 256 * 37, 32768, 128, arch="sm100", num_sms=148)["program"] == "fp8_blackwell_l2_point"
    with pytest.raises(ValueError, match="arch must be one of sm90, sm100, sm103"):
        cake.plan(1, 8, 16, 0, arch="sm120", num_sms=10)


def test_sm_limit_api():
    assert cake.set_num_sms is cake.gemm.set_num_sms and cake.get_num_sms is cake.gemm.get_num_sms
    assert list(inspect.signature(cake.set_num_sms).parameters) == ["num_sms", "device"]
    assert list(inspect.signature(cake.get_num_sms).parameters) == ["device"]
    for text in ["ValueError", "CUDA graph", "None"]:
        assert text in cake.set_num_sms.__doc__


def test_unsupported_architecture_error_is_a_runtime_error():
    assert issubclass(cake.UnsupportedArchitectureError, RuntimeError)


def test_custom_op_schema():
    schema = str(torch.ops.cake.mm_fp8_lora.default._schema)
    assert "Tensor(a8!) out" in schema and schema.endswith("-> ()")


def test_layer_rejects_unsupported_rank():
    lin = torch.nn.Linear(64, 32)
    with pytest.raises(ValueError, match=r"rank must be one of \(32, 64, 128\) \(got r=16\)"):
        cake.nn.Fp8LoRALinear.from_linear(lin, torch.randn(16, 64), torch.randn(32, 16), 0.5)
    layer = cake.nn.Fp8LoRALinear.from_linear(lin, torch.randn(32, 64), torch.randn(32, 32), 0.5)
    assert layer.weight.dtype == torch.float8_e4m3fn and layer.lora_scale.item() == 0.5


def test_layer_set_adapter_writes_in_place_and_rejects_other_shapes():
    lin = torch.nn.Linear(64, 32)
    layer = cake.nn.Fp8LoRALinear.from_linear(lin, torch.randn(32, 64), torch.randn(32, 32), 0.5)
    buffers = (layer.lora_A.data_ptr(), layer.lora_B.data_ptr(), layer.lora_scale.data_ptr())
    A, B = torch.randn(32, 64), torch.randn(32, 32)
    layer.set_adapter(A, B, 0.25)
    assert (layer.lora_A.data_ptr(), layer.lora_B.data_ptr(), layer.lora_scale.data_ptr()) == buffers
    assert torch.equal(layer.lora_A, A.to(torch.bfloat16)) and torch.equal(layer.lora_B, B.to(torch.bfloat16))
    assert layer.lora_scale.item() == 0.25
    with pytest.raises(ValueError, match=r"lora_A must keep its shape \[32, 64\] \(got \[64, 64\]\)"):
        layer.set_adapter(torch.randn(64, 64), torch.randn(32, 64), 1.0)
    with pytest.raises(ValueError, match=r"lora_B must keep its shape \[32, 32\] \(got \[32, 64\]\)"):
        layer.set_adapter(torch.randn(32, 64), torch.randn(32, 64), 1.0)
    assert torch.equal(layer.lora_A, A.to(torch.bfloat16)) and layer.lora_scale.item() == 0.25  # nothing written
    bare = cake.nn.Fp8LoRALinear.from_linear(lin)
    with pytest.raises(ValueError, match="built without an adapter"):
        bare.set_adapter(A, B, 1.0)


def test_quantize_fp8_round_trip():
    x = torch.randn(64, 64)
    q, s = cake.nn.quantize_fp8(x)
    assert q.dtype == torch.float8_e4m3fn and s.shape == (1,)
    assert ((q.float() * s - x).norm() / x.norm()).item() < 0.05
