"""Inputs and fp64 references shared by the GPU tests."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

import torch

import cake

# A single-rounding result has ratio 1; the bar is 1.05x the floor (cuBLASLt
# without fast accumulation measures 1.003x on the same kind of data).
FROBENIUS_BAR = 1.05
# Below this many outputs the Frobenius ratio is dominated by a handful of
# rounding ties; those shapes are held to the element-wise bound alone.
FROBENIUS_MIN_ELEMENTS = 4096


@dataclass
class Problem:
    a: torch.Tensor
    b: torch.Tensor
    a_scale: torch.Tensor
    b_scale: torch.Tensor
    d: Optional[torch.Tensor]
    lora_b: Optional[torch.Tensor]
    lora_scale: Optional[torch.Tensor]
    bias: Optional[torch.Tensor]

    @property
    def shape(self):
        return self.a.shape[0], self.b.shape[0], self.a.shape[1]

    def kwargs(self):
        return dict(bias=self.bias)

    def args(self):
        return (self.a, self.b, self.a_scale, self.b_scale, self.d, self.lora_b, self.lora_scale)


def make_problem(M: int, N: int, K: int, r: int = 0, bias: bool = False, seed: int = 0,
                 device: str = "cuda") -> Problem:
    """Fresh random inputs with non-trivial scales. The base term and the correction
    have comparable magnitudes (both ~0.5-1 per element), so an error in either shows."""
    g = torch.Generator(device=device).manual_seed(seed)

    def randn(*shape):
        return torch.randn(*shape, generator=g, device=device)

    def uniform(lo, hi):
        return lo + (hi - lo) * torch.rand(1, generator=g, device=device)

    a = (randn(M, K) * 2.0).to(torch.float8_e4m3fn)
    b = (randn(N, K) * 2.0).to(torch.float8_e4m3fn)
    # alpha ~ 0.25 / sqrt(K) keeps the base term O(1) at every K.
    a_scale = (uniform(0.5, 1.5) / math.sqrt(K)).float()
    b_scale = uniform(0.2, 0.3).float()
    d = lora_b = lora_scale = None
    if r:
        d = randn(M, r).to(torch.bfloat16)
        lora_b = randn(N, r).to(torch.bfloat16)
        lora_scale = (uniform(0.5, 1.0) / math.sqrt(r)).float()
    bias_t = (randn(N) * 0.5).to(torch.bfloat16) if bias else None
    return Problem(a, b, a_scale, b_scale, d, lora_b, lora_scale, bias_t)


def reference(p: Problem) -> torch.Tensor:
    """The contract's formula in fp64 (alpha is the fp32 product of the scales)."""
    alpha = (p.a_scale * p.b_scale).double()
    ref = alpha * (p.a.double() @ p.b.double().T)
    if p.lora_scale is not None:
        ref = ref + p.lora_scale.double() * (p.d.double() @ p.lora_b.double().T)
    if p.bias is not None:
        ref = ref + p.bias.double()
    return ref


def bf16_ulp(x: torch.Tensor) -> torch.Tensor:
    """One bf16 unit in the last place at |x| (8 significant bits)."""
    _, e = torch.frexp(x.abs().clamp_min(2.0 ** -126))
    return torch.ldexp(torch.ones_like(x), (e - 8).to(torch.int32))


@dataclass
class Accuracy:
    rel_frobenius: float
    floor: float          # error of the exact result rounded once to bf16
    ratio: float          # rel_frobenius / floor
    worst_excess: float   # max |out-ref| / (ulp(ref) + 1e-3 * rms(ref)); <= 1 passes


# (label, Accuracy) of every checked call, summarised at the end of the session.
ACCURACY_LOG: list = []


def accuracy(out: torch.Tensor, ref: torch.Tensor, label: str = "") -> Accuracy:
    out64 = out.double()
    norm = ref.norm().item()
    err = (out64 - ref).norm().item() / norm
    floor = (ref.to(torch.bfloat16).double() - ref).norm().item() / norm
    rms = ref.pow(2).mean().sqrt().item()
    bound = bf16_ulp(ref) + 1e-3 * rms
    excess = ((out64 - ref).abs() / bound).max().item()
    acc = Accuracy(err, floor, err / floor if floor > 0 else (0.0 if err == 0 else math.inf), excess)
    ACCURACY_LOG.append((label or f"{tuple(out.shape)}", out.numel(), acc))
    return acc


def poisoned(M: int, N: int, device: str = "cuda") -> torch.Tensor:
    return torch.full((M, N), float("nan"), dtype=torch.bfloat16, device=device)


def run_and_check(p: Problem, seed_note: str = "") -> Accuracy:
    """cake.mm_fp8_lora on p into a poisoned out, held to the element bar and, from
    FROBENIUS_MIN_ELEMENTS outputs, the Frobenius bar against the fp64 reference."""
    M, N, K = p.shape
    out = poisoned(M, N)
    got = cake.mm_fp8_lora(*p.args(), bias=p.bias, out=out)
    assert got is out
    ref = reference(p)
    assert not torch.isnan(out).any(), f"unwritten or NaN elements {seed_note}"
    acc = accuracy(out, ref, f"M={M} N={N} K={K} {seed_note}")
    assert acc.worst_excess <= 1.0, (
        f"M={M} N={N} K={K}: an element is off by {acc.worst_excess:.2f}x "
        f"(one bf16 ulp + 1e-3 rms) {seed_note}")
    if M * N >= FROBENIUS_MIN_ELEMENTS:
        assert acc.ratio <= FROBENIUS_BAR, (
            f"M={M} N={N} K={K}: relative Frobenius error {acc.rel_frobenius:.3e} is "
            f"{acc.ratio:.3f}x the bf16 floor {acc.floor:.3e} {seed_note}")
    return acc
