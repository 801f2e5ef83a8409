"""cake as torch custom ops, for torch.compile.

``torch.ops.cake.mm_fp8_lora(a, b, a_scale, b_scale, d, lora_b, lora_scale, bias, out)``
writes ``out`` (declared mutated) and returns nothing; it has a fake
implementation, so ``torch.compile(fullgraph=True)`` traces models that call
:func:`cake.mm_fp8_lora` (which routes here while compiling) and CUDA-graph
modes (``mode="reduce-overhead"``) capture it. Eager callers keep calling
:func:`cake.mm_fp8_lora` directly: it skips the dispatcher.
"""

from __future__ import annotations

from typing import Optional

import torch

from ._ffi import lib as _lib


@torch.library.custom_op("cake::mm_fp8_lora", mutates_args=("out",))
def _mm_fp8_lora_out(
    a: torch.Tensor,
    b: torch.Tensor,
    a_scale: torch.Tensor,
    b_scale: torch.Tensor,
    d: Optional[torch.Tensor],
    lora_b: Optional[torch.Tensor],
    lora_scale: Optional[torch.Tensor],
    bias: Optional[torch.Tensor],
    out: torch.Tensor,
    backend: str = "cake",
) -> None:
    _lib.gemm("mm_fp8_lora", a, b, a_scale, b_scale, d, lora_b, lora_scale, bias, out, backend, None)


@_mm_fp8_lora_out.register_fake
def _(a, b, a_scale, b_scale, d, lora_b, lora_scale, bias, out, backend="cake"):
    if a.dim() != 2 or b.dim() != 2 or out.shape != (a.shape[0], b.shape[0]) or out.dtype != torch.bfloat16:
        raise ValueError(
            f"mm_fp8_lora: out must be bf16 [M, N] = [{a.shape[0]}, {b.shape[0]}] (got {out.dtype} "
            f"{list(out.shape)})")
    return None


def mm_fp8_lora(a, b, a_scale, b_scale, d=None, lora_b=None, lora_scale=None, *, bias=None, out=None,
                out_dtype=torch.bfloat16, backend="cake", enable_pdl=None):
    """:func:`cake.mm_fp8_lora` through the dispatcher (same arguments and rules)."""
    if out_dtype != torch.bfloat16:
        raise ValueError(f"mm_fp8_lora: out_dtype must be torch.bfloat16 (got {out_dtype})")
    if enable_pdl is False:
        raise ValueError("mm_fp8_lora: enable_pdl must be None or True: the programs are built with "
                         "programmatic dependent launch (got False)")
    if lora_scale is None:
        d = lora_b = None
    if out is None:
        out = torch.empty((a.shape[0], b.shape[0]), dtype=torch.bfloat16, device=a.device)
    torch.ops.cake.mm_fp8_lora(a, b, a_scale, b_scale, d, lora_b, lora_scale, bias, out, backend)
    return out
