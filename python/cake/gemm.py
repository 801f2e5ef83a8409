"""The operation: FP8 (E4M3, per-tensor scales) GEMM with a fused BF16 LoRA correction.

Everything is checked by cake's C++ contract (the same rules a C++ caller
meets); this layer only allocates ``out`` and checks what needs torch.
"""

from __future__ import annotations

from typing import Literal, Optional

import torch

from ._ffi import lib as _lib

__all__ = ["mm_fp8_lora", "mm_fp8", "plan", "set_num_sms", "get_num_sms"]


def _run(op, a, b, a_scale, b_scale, d, lora_b, lora_scale, bias, out, out_dtype, backend, enable_pdl):
    """Both entry points. The rules are cake's C++ contract; here only what needs
    torch: out_dtype, that tensors are tensors, and allocating out."""
    if lora_scale is None:  # the adapter is off: d and lora_b are not looked at
        d = lora_b = None
    if out_dtype != torch.bfloat16:
        raise ValueError(f"{op}: out_dtype must be torch.bfloat16 (got {out_dtype})")
    compiling = torch.compiler.is_compiling()
    if not compiling:  # traced tensors are tensors
        for name, value in (("a", a), ("b", b), ("a_scale", a_scale), ("b_scale", b_scale), ("d", d),
                            ("lora_b", lora_b), ("lora_scale", lora_scale), ("bias", bias), ("out", out)):
            if value is not None and not isinstance(value, torch.Tensor):
                raise ValueError(f"{op}: {name} must be a torch.Tensor (got {type(value).__name__})")
    if out is None and a is not None and b is not None:
        # A wrong-rank a or b gets an empty out here and its own error from the contract.
        shape = (a.shape[0], b.shape[0]) if a.dim() == 2 and b.dim() == 2 else (0, 0)
        out = torch.empty(shape, dtype=torch.bfloat16, device=a.device)
    if compiling:
        # Traced by torch.compile: the same call as a registered custom op.
        from . import ops

        ops.call(op, a, b, a_scale, b_scale, d, lora_b, lora_scale, bias, out, backend, enable_pdl)
    else:
        _lib.gemm(op, a, b, a_scale, b_scale, d, lora_b, lora_scale, bias, out, backend, enable_pdl)
    return out


def mm_fp8_lora(
    a: torch.Tensor,
    b: torch.Tensor,
    a_scale: torch.Tensor,
    b_scale: torch.Tensor,
    d: Optional[torch.Tensor] = None,
    lora_b: Optional[torch.Tensor] = None,
    lora_scale: Optional[torch.Tensor] = None,
    *,
    bias: Optional[torch.Tensor] = None,
    out: Optional[torch.Tensor] = None,
    out_dtype: torch.dtype = torch.bfloat16,
    backend: Literal["cake", "auto"] = "cake",
    enable_pdl: Optional[bool] = None,
) -> torch.Tensor:
    """FP8 (E4M3, per-tensor scales) base GEMM with a runtime BF16 LoRA correction.

    ``out = a_scale * b_scale * (a @ b^T) + lora_scale * (d @ lora_b^T) [+ bias]``

    The correction is computed from the BF16 factors as given (never re-rounded
    or pre-scaled), in fp32, inside the same kernel as the base product; the
    result is rounded once to bf16. The base scales and ``lora_scale`` are
    independent fp32 device scalars, read only by the kernel (no host sync).

    Args:
        a: float8_e4m3fn [M, K], row-major (unit inner stride, 16-byte aligned rows).
        b: float8_e4m3fn [N, K], row-major (``a @ b^T``).
        a_scale, b_scale: one-element fp32 tensors on the device of ``a``.
        d: bf16 [M, r], contiguous: the LoRA-down output. r in (32, 64, 128).
        lora_b: bf16 [N, r], contiguous: the LoRA-up weight (a [r, N] factor
            must be transposed and made contiguous by the caller).
        lora_scale: one-element fp32 device tensor. ``None`` turns the adapter
            off (``d`` / ``lora_b`` are then ignored, not even validated); a
            tensor holding +0.0 or -0.0 also turns it off, decided on the device:
            no adapter loads or MMAs, output bitwise identical to ``mm_fp8``,
            even when ``d`` / ``lora_b`` hold NaN. With a tensor, ``d`` and
            ``lora_b`` are required and validated (a CUDA graph may replay the
            call with a non-zero scale).
        bias: bf16 [N], added in fp32 before the single rounding.
        out: bf16 [M, N], contiguous, overlapping no input; allocated when None.
        out_dtype: only torch.bfloat16.
        backend: "cake" or "auto"; both run cake's programs, never another library.
        enable_pdl: None or True (programs always launch with programmatic
            dependent launch); False is refused.

    Shape rules: M >= 1; N a positive multiple of 8; K a positive multiple of 16
    on SM90 (there also M * N <= 2**32) and of 128 on SM100 / SM103.

    Runs on torch's current stream of the tensors' device; safe under CUDA-graph
    capture (no host sync, no allocation other than ``out``). A captured call
    keeps the adapter pointers: swap adapters by writing into the captured
    tensors (``copy_``), not by rebinding names.

    Raises:
        ValueError: a violated requirement; its message names the rule and the
            value. Nothing is launched and ``out`` is untouched.
        cake.UnsupportedArchitectureError: the device is not SM90 / SM100 / SM103
            (or its programs are not built yet).

    Returns:
        ``out`` (bf16 [M, N]).
    """
    return _run("mm_fp8_lora", a, b, a_scale, b_scale, d, lora_b, lora_scale, bias, out, out_dtype, backend,
                enable_pdl)


def mm_fp8(
    a: torch.Tensor,
    b: torch.Tensor,
    a_scale: torch.Tensor,
    b_scale: torch.Tensor,
    *,
    bias: Optional[torch.Tensor] = None,
    out: Optional[torch.Tensor] = None,
    out_dtype: torch.dtype = torch.bfloat16,
    backend: Literal["cake", "auto"] = "cake",
    enable_pdl: Optional[bool] = None,
) -> torch.Tensor:
    """FP8 (E4M3, per-tensor scales) GEMM: ``out = a_scale * b_scale * (a @ b^T) [+ bias]``.

    The programs of :func:`mm_fp8_lora` with the adapter off; the same
    arguments, rules and errors.
    """
    return _run("mm_fp8", a, b, a_scale, b_scale, None, None, None, bias, out, out_dtype, backend, enable_pdl)


def _device(device: Optional[int]) -> int:
    """A device ordinal: the one given, or torch's current CUDA device."""
    return int(torch.cuda.current_device() if device is None else device)


def device_info(device: Optional[int] = None) -> dict:
    """Compute capability (major, minor), SM count (num_sms), peak DRAM bandwidth in
    GB/s as the plan takes it (dram_gbps: memory clock x bus width x 2, 0 where the
    runtime does not report them) and cake's architecture name (arch, '' if none) of
    a CUDA device."""
    return dict(_lib.device_info(_device(device)))


def set_num_sms(num_sms: Optional[int] = None, device: Optional[int] = None) -> None:
    """Limits the SMs cake's programs use on a device (the current one by default).

    Plans are then made for ``num_sms`` SMs and launch at most that many CTAs, so
    that kernels running beside the GEMM (a tensor-parallel all-reduce, expert
    dispatch) keep the rest; ``None`` (or 0) gives cake all of them again. The
    limit is per device and per process; calls already captured in a CUDA graph
    keep the plans they were captured with. Raises ValueError unless
    0 <= num_sms <= the device's SM count.
    """
    _lib.set_num_sms(_device(device), 0 if num_sms is None else int(num_sms))


def get_num_sms(device: Optional[int] = None) -> int:
    """The SM count cake plans for on a device: the limit of :func:`set_num_sms`,
    or all of its SMs."""
    return int(_lib.num_sms(_device(device)))


def plan(M: int, N: int, K: int, r: int = 0, arch: Optional[str] = None,
         num_sms: Optional[int] = None, dram_gbps: Optional[int] = None) -> dict:
    """The program cake runs for a problem, and its parameters, without launching.

    A pure function of (M, N, K, r, arch, num_sms, dram_gbps): pass ``arch``
    ("sm90", "sm100", "sm103") and ``num_sms`` to ask about any device; leave
    them None to ask about the current CUDA device (``num_sms`` then is
    :func:`get_num_sms`). ``r`` is the LoRA rank (0: adapter off).
    ``dram_gbps`` is the device's peak DRAM bandwidth in GB/s, which tells boards
    of one architecture and SM count apart (an H100 SXM from an H200); None takes
    the current device's (``cake.gemm.device_info()["dram_gbps"]``) when ``arch`` or
    ``num_sms`` is None as well, else 0: unknown, planned as for the H200.

    Returns a dict: program, arch, tile_m, tile_n, tile_k, swap_ab, cluster_m,
    cluster_n, scheduler, raster, raster_group, raster_block_m, raster_block_n,
    tiles_m, tiles_n, tiles, workers, waves, grid, split_k, head_m, head_n, and
    on SM90 promotion_k (the K elements between promotions of the FP8 tensor-core
    partial sums into fp32: 64, or 128 from K = 2048 on). The plan covers rows
    [0, head_m) and columns [0, head_n) of out; where head_m < M the rows past
    them run next as the problem ``plan(M - head_m, N, K, ...)``, where
    head_n < N the columns past them as ``plan(M, N - head_n, K, ...)``.
    """
    if arch is None or num_sms is None:
        info = device_info()
        arch = arch if arch is not None else info["arch"]
        num_sms = num_sms if num_sms is not None else get_num_sms()
        dram_gbps = dram_gbps if dram_gbps is not None else info["dram_gbps"]
    dram = 0 if dram_gbps is None else int(dram_gbps)
    return dict(_lib.plan(int(M), int(N), int(K), int(r), str(arch), int(num_sms), dram))
