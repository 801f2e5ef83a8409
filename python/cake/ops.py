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
    enable_pdl: Optional[bool] = None,
    op: str = "mm_fp8_lora",
) -> None:
    # The contract is checked by cake's C++, exactly as for an eager call.
    _lib.gemm(op, a, b, a_scale, b_scale, d, lora_b, lora_scale, bias, out, backend, enable_pdl)


@_mm_fp8_lora_out.register_fake
def _(a, b, a_scale, b_scale, d, lora_b, lora_scale, bias, out, backend="cake", enable_pdl=None, op="mm_fp8_lora"):
    # Tracing sees no C++: keep the one fact the graph depends on, out's shape.
    if a.dim() != 2 or b.dim() != 2 or out.shape != (a.shape[0], b.shape[0]) or out.dtype != torch.bfloat16:
        raise ValueError(f"{op}: out must be bfloat16 [M, N] = [{a.shape[0]}, {b.shape[0]}] (got {out.dtype} "
                         f"{list(out.shape)})")
    return None


def call(op, a, b, a_scale, b_scale, d, lora_b, lora_scale, bias, out, backend, enable_pdl):
    """What :func:`cake.mm_fp8_lora` / :func:`cake.mm_fp8` run while torch.compile
    traces them (they allocate ``out`` first): the custom op."""
    torch.ops.cake.mm_fp8_lora(a, b, a_scale, b_scale, d, lora_b, lora_scale, bias, out, backend, enable_pdl, op)
