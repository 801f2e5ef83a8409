"""An FP8 linear layer with a fused LoRA adapter, and a PEFT converter."""

from __future__ import annotations

from typing import Optional

import torch
from torch import nn

from ..gemm import mm_fp8_lora

E4M3_MAX = 448.0
SUPPORTED_RANKS = (32, 64, 128)


def quantize_fp8(x: torch.Tensor):
    """Per-tensor FP8 E4M3 quantization on the device (no host sync).

    Returns ``(codes, scale)`` with ``x ~= codes.float() * scale``; ``scale`` is a
    one-element fp32 tensor (amax / 448).
    """
    amax = x.detach().abs().amax().float().clamp_min(1e-12)
    scale = (amax / E4M3_MAX).reshape(1)
    codes = (x.float() / scale).clamp(-E4M3_MAX, E4M3_MAX).to(torch.float8_e4m3fn)
    return codes, scale


class Fp8LoRALinear(nn.Module):
    """``y = x @ W^T + scaling * (x @ A^T) @ B^T [+ bias]`` with W in FP8.

    The input is quantized to FP8 per tensor on the fly, ``d = x @ A^T`` is
    computed in bf16, and :func:`cake.mm_fp8_lora` fuses the FP8 GEMM with the
    correction ``scaling * d @ B^T`` and the bias, rounding once to bf16.

    The adapter lives in buffers: :meth:`set_adapter` writes a new one in place
    (``copy_``), which is what CUDA-graph replays see. Ranks: 32, 64, 128.
    """

    def __init__(self, weight: torch.Tensor, weight_scale: torch.Tensor, bias: Optional[torch.Tensor] = None,
                 lora_A: Optional[torch.Tensor] = None, lora_B: Optional[torch.Tensor] = None,
                 scaling: float = 1.0):
        super().__init__()
        if weight.dtype != torch.float8_e4m3fn or weight.dim() != 2:
            raise ValueError(f"Fp8LoRALinear: weight must be float8_e4m3fn [N, K] (got {weight.dtype} "
                             f"{list(weight.shape)})")
        self.out_features, self.in_features = weight.shape
        self.register_buffer("weight", weight.contiguous())
        self.register_buffer("weight_scale", weight_scale.detach().float().reshape(1).clone())
        self.register_buffer("bias", None if bias is None else bias.detach().to(torch.bfloat16).contiguous())
        self.register_buffer("lora_A", None)
        self.register_buffer("lora_B", None)
        self.register_buffer("lora_scale", None)
        if lora_A is not None:
            r = lora_A.shape[0]
            if r not in SUPPORTED_RANKS:
                raise ValueError(f"Fp8LoRALinear: the LoRA rank must be one of {SUPPORTED_RANKS} (got r={r})")
            self.lora_A = lora_A.detach().to(torch.bfloat16).contiguous()
            self.lora_B = lora_B.detach().to(torch.bfloat16).contiguous()
            self.lora_scale = torch.full((1,), float(scaling), dtype=torch.float32, device=weight.device)

    @classmethod
    def from_linear(cls, linear: nn.Linear, lora_A: Optional[torch.Tensor] = None,
                    lora_B: Optional[torch.Tensor] = None, scaling: float = 1.0) -> "Fp8LoRALinear":
        """Quantizes ``linear.weight`` to FP8 per tensor; A [r, K], B [N, r] as PEFT stores them."""
        weight, scale = quantize_fp8(linear.weight.detach())
        return cls(weight, scale, linear.bias, lora_A, lora_B, scaling)

    @torch.no_grad()
    def set_adapter(self, lora_A: torch.Tensor, lora_B: torch.Tensor, scaling: float):
        """Writes a new adapter (same rank) into the existing buffers; a layer built
        without one has no buffers to write (build it with an adapter, or scaling 0)."""
        if self.lora_A is None:
            raise ValueError("Fp8LoRALinear.set_adapter: this layer was built without an adapter; "
                             "build it with one (scaling=0 turns it off) to swap adapters in place")
        for name, new, old in (("lora_A", lora_A, self.lora_A), ("lora_B", lora_B, self.lora_B)):
            if tuple(new.shape) != tuple(old.shape):
                raise ValueError(f"Fp8LoRALinear.set_adapter: {name} must keep its shape {list(old.shape)} "
                                 f"(got {list(new.shape)})")
        self.lora_A.copy_(lora_A)
        self.lora_B.copy_(lora_B)
        self.lora_scale.fill_(scaling)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        lead = x.shape[:-1]
        x2 = x.reshape(-1, self.in_features).to(torch.bfloat16)
        a, a_scale = quantize_fp8(x2)
        d = x2 @ self.lora_A.t() if self.lora_A is not None else None
        out = mm_fp8_lora(a, self.weight, a_scale, self.weight_scale, d, self.lora_B, self.lora_scale,
                          bias=self.bias)
        return out.reshape(*lead, self.out_features)

    def extra_repr(self) -> str:
        r = None if self.lora_A is None else self.lora_A.shape[0]
        return f"in_features={self.in_features}, out_features={self.out_features}, r={r}, bias={self.bias is not None}"


def replace_peft_lora(model: nn.Module, adapter_name: Optional[str] = None) -> nn.Module:
    """Replaces every PEFT LoRA layer wrapped around an ``nn.Linear`` by an
    :class:`Fp8LoRALinear` carrying the active (or named) adapter, in place.

    PEFT's ``scaling`` (lora_alpha / r, or / sqrt(r) with rsLoRA) becomes the
    device scalar ``lora_scale``; dropout is an identity at inference. DoRA and
    adapters of other ranks than 32 / 64 / 128 raise ValueError.
    """
    targets = []
    for name, module in model.named_modules():
        if hasattr(module, "lora_A") and hasattr(module, "base_layer") and isinstance(module.base_layer, nn.Linear):
            targets.append((name, module))
    for name, module in targets:
        adapter = adapter_name or module.active_adapters[0]
        if getattr(module, "use_dora", {}).get(adapter, False):
            raise ValueError(f"replace_peft_lora: {name} uses DoRA, which cake does not implement")
        layer = Fp8LoRALinear.from_linear(module.base_layer, module.lora_A[adapter].weight,
                                          module.lora_B[adapter].weight, module.scaling[adapter])
        parent_name, _, child = name.rpartition(".")
        parent = model.get_submodule(parent_name) if parent_name else model
        setattr(parent, child, layer)
    return model
