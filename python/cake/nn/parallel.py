"""Tensor-parallel Fp8LoRALinear, following cake's host contract.

Column-parallel (N sharded): each rank holds its N shard of the weight, of
lora_B and of the bias, and the full lora_A; each rank adds its own correction
and the shards are gathered along N.

Row-parallel (K sharded): each rank holds its K shard of the weight and of
lora_A, and the full lora_B. ``d = x @ A^T`` is summed over the ranks first (an
all-reduce of an [M, r] tensor), then only the owner rank passes ``lora_scale``
and ``bias`` (the others a device zero and None), so the correction and the bias
are counted exactly once in the all-reduce of the outputs.
"""

from __future__ import annotations

from typing import Optional

import torch
import torch.distributed as dist
from torch import nn

from ..gemm import mm_fp8_lora
from .linear import Fp8LoRALinear, quantize_fp8


def _shard(t: Optional[torch.Tensor], dim: int, rank: int, world: int) -> Optional[torch.Tensor]:
    if t is None:
        return None
    size = t.shape[dim]
    if size % world:
        raise ValueError(f"cannot shard dimension {dim} of size {size} over {world} ranks")
    return t.narrow(dim, rank * (size // world), size // world).contiguous()


class ColumnParallelFp8LoRALinear(nn.Module):
    """N-sharded :class:`Fp8LoRALinear`; ``forward`` returns the gathered [..., N] output
    (or the local shard with ``gather_output=False``)."""

    def __init__(self, full: Fp8LoRALinear, group: Optional[dist.ProcessGroup] = None, gather_output: bool = True):
        super().__init__()
        self.group = group
        self.world = dist.get_world_size(group)
        rank = dist.get_rank(group)
        self.gather_output = gather_output
        scaling = float(full.lora_scale.item()) if full.lora_scale is not None else 1.0
        self.local = Fp8LoRALinear(_shard(full.weight, 0, rank, self.world), full.weight_scale,
                                   _shard(full.bias, 0, rank, self.world), full.lora_A,
                                   _shard(full.lora_B, 0, rank, self.world), scaling)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.local(x)
        if not self.gather_output:
            return y
        parts = [torch.empty_like(y) for _ in range(self.world)]
        dist.all_gather(parts, y.contiguous(), group=self.group)
        return torch.cat(parts, dim=-1)


class RowParallelFp8LoRALinear(nn.Module):
    """K-sharded :class:`Fp8LoRALinear`; ``forward`` takes this rank's K shard of
    the input and returns the all-reduced [..., N] output."""

    def __init__(self, full: Fp8LoRALinear, group: Optional[dist.ProcessGroup] = None, owner: int = 0):
        super().__init__()
        self.group = group
        self.world = dist.get_world_size(group)
        self.rank = dist.get_rank(group)
        self.owner = owner
        dev = full.weight.device
        self.register_buffer("weight", _shard(full.weight, 1, self.rank, self.world))
        self.register_buffer("weight_scale", full.weight_scale.clone())
        self.register_buffer("lora_A", _shard(full.lora_A, 1, self.rank, self.world))
        self.register_buffer("lora_B", full.lora_B)
        owner_rank = self.rank == owner
        # Only the owner counts the correction and the bias.
        self.register_buffer("lora_scale", full.lora_scale.clone() if owner_rank else torch.zeros(1, device=dev))
        self.register_buffer("bias", full.bias if owner_rank else None)
        self.out_features = full.out_features

    def forward(self, x_shard: torch.Tensor) -> torch.Tensor:
        lead = x_shard.shape[:-1]
        x2 = x_shard.reshape(-1, x_shard.shape[-1]).to(torch.bfloat16)
        d = x2 @ self.lora_A.t()
        dist.all_reduce(d, group=self.group)  # the full LoRA-down output on every rank
        a, a_scale = quantize_fp8(x2)
        y = mm_fp8_lora(a, self.weight, a_scale, self.weight_scale, d, self.lora_B, self.lora_scale, bias=self.bias)
        dist.all_reduce(y, group=self.group)
        return y.reshape(*lead, self.out_features)
