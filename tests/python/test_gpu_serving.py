"""Serving: CUDA graphs, torch.compile, the drop-in layer on a PEFT Llama."""

from __future__ import annotations

import re

import pytest
import torch

import cake
from reference import make_problem

pytestmark = pytest.mark.gpu


def bits(t):
    return t.view(torch.int16)


def eager(p, s, d=None, lb=None):
    return cake.mm_fp8_lora(p.a, p.b, p.a_scale, p.b_scale, p.d if d is None else d,
                            p.lora_b if lb is None else lb, s, bias=p.bias)


@pytest.mark.parametrize("M", [16, 300])
def test_cuda_graph_replay_and_adapter_swap(M):
    N, K, r = 264, 1040, 64
    p = make_problem(M, N, K, r=r, bias=True, seed=M)
    out = torch.empty(M, N, dtype=torch.bfloat16, device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):  # warm-up outside capture
        cake.mm_fp8_lora(*p.args(), bias=p.bias, out=out)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        cake.mm_fp8_lora(*p.args(), bias=p.bias, out=out)

    # Replay equals eager, bit for bit.
    out.fill_(float("nan"))
    g.replay()
    assert torch.equal(bits(out), bits(eager(p, p.lora_scale)))

    # A new adapter written into the captured tensors takes effect on replay.
    q = make_problem(M, N, K, r=r, bias=True, seed=M + 1)
    p.d.copy_(q.d)
    p.lora_b.copy_(q.lora_b)
    p.lora_scale.copy_(q.lora_scale)
    g.replay()
    expected_new = eager(p, p.lora_scale)
    assert torch.equal(bits(out), bits(expected_new))

    # Rebinding names to new tensors after capture changes nothing.
    old_d, old_lb, old_s = p.d, p.lora_b, p.lora_scale
    p.d, p.lora_b, p.lora_scale = q.d * 3, q.lora_b * 3, q.lora_scale * 3
    g.replay()
    assert torch.equal(bits(out), bits(expected_new))
    p.d, p.lora_b, p.lora_scale = old_d, old_lb, old_s

    # lora_scale switched to 0 by copy_: the base result (bitwise mm_fp8); back to non-zero: fused.
    p.lora_scale.zero_()
    g.replay()
    base = cake.mm_fp8(p.a, p.b, p.a_scale, p.b_scale, bias=p.bias)
    assert torch.equal(bits(out), bits(base))
    p.lora_scale.copy_(q.lora_scale)
    g.replay()
    assert torch.equal(bits(out), bits(expected_new))
    assert not torch.equal(bits(expected_new), bits(base))


def test_cuda_graph_captured_with_the_adapter_off():
    M, N, K, r = 64, 136, 512, 32
    p = make_problem(M, N, K, r=r, bias=True, seed=3)
    p.lora_scale.zero_()
    out = torch.empty(M, N, dtype=torch.bfloat16, device="cuda")
    cake.mm_fp8_lora(*p.args(), bias=p.bias, out=out)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        cake.mm_fp8_lora(*p.args(), bias=p.bias, out=out)
    g.replay()
    assert torch.equal(bits(out), bits(cake.mm_fp8(p.a, p.b, p.a_scale, p.b_scale, bias=p.bias)))
    p.lora_scale.fill_(0.25)
    g.replay()
    assert torch.equal(bits(out), bits(eager(p, p.lora_scale)))


def test_cuda_graph_keeps_the_sm_limit_it_was_captured_with():
    # Split-K over 2 on the whole H200, unsplit (on 128-row tiles) on 66 SMs: the
    # partial sums are added in another order, so some of the 1.3 M outputs differ
    # in their last bit, and a replay shows which plan it runs.
    M, N, K, r = 64, 20488, 14352, 64
    p = make_problem(M, N, K, r=r, bias=True, seed=9)
    whole = eager(p, p.lora_scale)
    out = torch.empty(M, N, dtype=torch.bfloat16, device="cuda")
    cake.set_num_sms(66)
    try:
        whole_sms = cake.gemm.device_info()["num_sms"]
        assert cake.plan(M, N, K, r)["split_k"] != cake.plan(M, N, K, r, num_sms=whole_sms)["split_k"]
        limited = eager(p, p.lora_scale)
        cake.mm_fp8_lora(*p.args(), bias=p.bias, out=out)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            cake.mm_fp8_lora(*p.args(), bias=p.bias, out=out)
    finally:
        cake.set_num_sms(None)
    assert not torch.equal(bits(whole), bits(limited))
    out.fill_(float("nan"))
    g.replay()
    assert torch.equal(bits(out), bits(limited))
    assert torch.equal(bits(eager(p, p.lora_scale)), bits(whole))


class Tiny(torch.nn.Module):
    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, x_scale):
        p = self.p
        y = cake.mm_fp8_lora(p.a, p.b, p.a_scale * x_scale, p.b_scale, p.d, p.lora_b, p.lora_scale, bias=p.bias)
        return torch.relu(y) * 2


@pytest.mark.parametrize("mode", [None, "reduce-overhead"])
def test_torch_compile_fullgraph(mode):
    torch._dynamo.reset()
    p = make_problem(48, 264, 512, r=64, bias=True, seed=7)
    model = Tiny(p)
    one = torch.ones(1, device="cuda")
    expected = model(one)
    compiled = torch.compile(model, fullgraph=True, mode=mode)
    for _ in range(3):
        got = compiled(one)
    assert torch.equal(bits(got.clone()), bits(expected))


def test_custom_op_is_registered_with_a_fake_and_the_mutation():
    import cake.ops  # noqa: F401

    op = torch.ops.cake.mm_fp8_lora.default
    schema = str(op._schema)
    assert re.search(r"Tensor\(a\d*!\) out", schema), schema  # out is declared mutated
    assert schema.endswith("-> ()"), schema
    p = make_problem(32, 136, 256, r=32, seed=9)
    out = torch.empty(32, 136, dtype=torch.bfloat16, device="cuda")
    # test_schema is left out: its checker multiplies inputs, which torch does not implement for fp8.
    torch.library.opcheck(op, (p.a, p.b, p.a_scale, p.b_scale, p.d, p.lora_b, p.lora_scale, None, out),
                          test_utils=("test_faketensor",))


def _tiny_llama(r):
    transformers = pytest.importorskip("transformers")
    peft = pytest.importorskip("peft")
    torch.manual_seed(0)
    config = transformers.LlamaConfig(vocab_size=512, hidden_size=256, intermediate_size=512, num_hidden_layers=2,
                                      num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=128)
    model = transformers.LlamaForCausalLM(config).to("cuda", torch.bfloat16).eval()
    lora = peft.LoraConfig(r=r, lora_alpha=2 * r, target_modules=["q_proj", "k_proj", "v_proj", "o_proj",
                                                                    "gate_proj", "up_proj", "down_proj"])
    model = peft.get_peft_model(model, lora)
    # PEFT starts B at zero (a no-op adapter); make the adapter matter.
    with torch.no_grad():
        for name, param in model.named_parameters():
            if "lora_B" in name:
                param.normal_(0, 0.02)
    return model.eval()


@pytest.mark.parametrize("r", [32, 64])
def test_peft_llama_with_cake_layers(r):
    """Measure: relative Frobenius error of the logits against the PEFT model in
    fp32. Bar: cake's error is within 1.25x that of an fp32 emulation of the
    same FP8 quantization (quantize-dequantize of weights and activations,
    per tensor, everything else in fp32) plus 1e-2, and top-1 tokens agree with
    PEFT bf16 at >= 90% of positions."""
    import copy

    from cake.nn import Fp8LoRALinear, replace_peft_lora
    from cake.nn.linear import quantize_fp8

    model = _tiny_llama(r)
    ids = torch.randint(0, 512, (2, 48), device="cuda")
    with torch.no_grad():
        ref32 = copy.deepcopy(model).float()(ids).logits.float()
        bf16 = model(ids).logits.float()

        emulated = copy.deepcopy(model).float()
        for m in emulated.modules():
            if hasattr(m, "base_layer") and isinstance(m.base_layer, torch.nn.Linear):
                w, ws = quantize_fp8(m.base_layer.weight)
                m.base_layer.weight.copy_(w.float() * ws)
                lin = m.base_layer

                def hook(mod, args):
                    x = args[0]
                    q, s = quantize_fp8(x)
                    return (q.float() * s,)
                lin.register_forward_pre_hook(hook)
        emu = emulated(ids).logits.float()

        replace_peft_lora(model)
        assert any(isinstance(m, Fp8LoRALinear) for m in model.modules())
        got = model(ids).logits.float()

    def rel(x, y):
        return ((x - y).norm() / y.norm()).item()

    err_cake, err_emu = rel(got, ref32), rel(emu, ref32)
    top1 = (got.argmax(-1) == bf16.argmax(-1)).float().mean().item()
    print(f"r={r}: logits rel err vs fp32 PEFT: cake {err_cake:.4f}, fp8 emulation {err_emu:.4f}, "
          f"bf16 PEFT {rel(bf16, ref32):.4f}; top-1 agreement with bf16 PEFT {top1:.3f}")
    assert err_cake <= 1.25 * err_emu + 1e-2
    assert top1 >= 0.90
