"""Drop-in layers: an FP8 linear layer with a fused LoRA adapter, its
tensor-parallel variants, and converters from PEFT."""

from .linear import Fp8LoRALinear, quantize_fp8, replace_peft_lora
from .parallel import ColumnParallelFp8LoRALinear, RowParallelFp8LoRALinear

__all__ = [
    "Fp8LoRALinear",
    "ColumnParallelFp8LoRALinear",
    "RowParallelFp8LoRALinear",
    "quantize_fp8",
    "replace_peft_lora",
]
