"""Tensor parallelism on two GPUs, one process per GPU (NCCL):

    torchrun --nproc-per-node=2 tests/distributed/tp_check.py

Column-parallel (N sharded) and row-parallel (K sharded, only the owner rank
passes lora_scale and bias) results, gathered / all-reduced, are compared with
the single-GPU result and an fp64 reference. The adapter term is as large as the
base term, so counting it twice or not at all misses by far more than the bar.
Prints one line per check and exits non-zero on any failure.
"""

from __future__ import annotations

import math
import os
import sys

import torch
import torch.distributed as dist

import cake
from cake.nn import ColumnParallelFp8LoRALinear, Fp8LoRALinear, RowParallelFp8LoRALinear


def rel(x, y):
    return ((x.double() - y.double()).norm() / y.double().norm()).item()


def main():
    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", rank)))
    dev = "cuda"
    torch.manual_seed(1234)  # the same full problem on every rank
    M, N, K, r = 96, 1024, 2048, 64
    a = (torch.randn(M, K, device=dev) * 2).to(torch.float8_e4m3fn)
    b = (torch.randn(N, K, device=dev) * 2).to(torch.float8_e4m3fn)
    a_scale = torch.full((1,), 1.0 / math.sqrt(K), device=dev)
    b_scale = torch.full((1,), 0.25, device=dev)
    d = torch.randn(M, r, device=dev, dtype=torch.bfloat16)
    lora_b = torch.randn(N, r, device=dev, dtype=torch.bfloat16)
    s = torch.full((1,), 1.0 / math.sqrt(r), device=dev)
    bias = torch.randn(N, device=dev, dtype=torch.bfloat16)

    base = (a_scale * b_scale).double() * (a.double() @ b.double().T)
    adapter = s.double() * (d.double() @ lora_b.double().T)
    ref = base + adapter + bias.double()
    single = cake.mm_fp8_lora(a, b, a_scale, b_scale, d, lora_b, s, bias=bias)
    margin = 0.1 * adapter.norm().item() / ref.norm().item()  # a miscounted adapter is >= 10x this
    failures = 0

    def check(name, got, bar):
        nonlocal failures
        e_ref, e_single = rel(got, ref), rel(got, single)
        ok = e_ref <= bar and e_single <= bar
        failures += not ok
        if rank == 0:
            print(f"{'PASS' if ok else 'FAIL'} {name}: rel err vs fp64 {e_ref:.2e}, vs single GPU {e_single:.2e} "
                  f"(bar {bar:.2e}; adapter miscount would be >= {10 * margin:.2e})", flush=True)

    # --- the op, column-parallel: N shards of b / lora_b / bias, full d; gather along N.
    n0, n1 = rank * N // world, (rank + 1) * N // world
    y = cake.mm_fp8_lora(a, b[n0:n1].contiguous(), a_scale, b_scale, d, lora_b[n0:n1].contiguous(), s,
                         bias=bias[n0:n1].contiguous())
    parts = [torch.empty_like(y) for _ in range(world)]
    dist.all_gather(parts, y)
    check("column-parallel op", torch.cat(parts, dim=1), min(4e-3, margin))

    # --- the op, row-parallel: K shards of a / b, full d / lora_b; only rank 0 passes lora_scale and bias.
    k0, k1 = rank * K // world, (rank + 1) * K // world
    owner = rank == 0
    y = cake.mm_fp8_lora(a[:, k0:k1].contiguous(), b[:, k0:k1].contiguous(), a_scale, b_scale, d, lora_b,
                         s if owner else torch.zeros(1, device=dev), bias=bias if owner else None)
    y32 = y.float()
    dist.all_reduce(y32)
    check("row-parallel op", y32, min(6e-3, margin))

    # --- the layers (activations quantized on the fly, per rank).
    x = torch.randn(M, K, device=dev, dtype=torch.bfloat16)
    lora_A = torch.randn(r, K, device=dev, dtype=torch.bfloat16) / math.sqrt(K)
    full = Fp8LoRALinear.from_linear(torch.nn.Linear(K, N, device=dev, dtype=torch.bfloat16), lora_A,
                                     torch.randn(N, r, device=dev, dtype=torch.bfloat16), scaling=0.5)
    want = full(x)
    # The unquantized layer in fp32: what both FP8 versions approximate.
    W = full.weight.float() * full.weight_scale
    exact = x.float() @ W.T + 0.5 * (x.float() @ lora_A.float().T) @ full.lora_B.float().T + full.bias.float()
    col = ColumnParallelFp8LoRALinear(full)(x)
    row = RowParallelFp8LoRALinear(full)(x[:, k0:k1])
    # Column shards see the same quantized activations: only summation order differs.
    e_col = rel(col, want)
    # Row shards quantize their own K slice: as close to the exact layer as the single GPU is.
    e_single, e_row = rel(want, exact), rel(row, exact)
    ok_col, ok_row = e_col <= 4e-3, e_row <= 1.5 * e_single + 5e-3
    failures += (not ok_col) + (not ok_row)
    if rank == 0:
        print(f"{'PASS' if ok_col else 'FAIL'} ColumnParallelFp8LoRALinear: rel err vs single GPU {e_col:.2e} (bar 4e-3)")
        print(f"{'PASS' if ok_row else 'FAIL'} RowParallelFp8LoRALinear: rel err vs the exact layer {e_row:.2e}, "
              f"single GPU's {e_single:.2e} (bar 1.5x + 5e-3)")
    total = torch.tensor([failures], device=dev)
    dist.all_reduce(total)
    dist.destroy_process_group()
    if rank == 0:
        print(f"tensor parallel: {4 - int(total.item()) // world} passed, {int(total.item()) // world} failed")
    sys.exit(1 if total.item() else 0)


if __name__ == "__main__":
    main()
