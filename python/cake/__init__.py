"""cake: FP8 GEMM with a fused LoRA correction for LLM serving.

    out = a_scale * b_scale * (a @ b^T) + lora_scale * (d @ lora_b^T) [+ bias]  -> bf16

See :func:`cake.gemm.mm_fp8_lora`.
"""

from . import gemm, nn, ops
from .errors import UnsupportedArchitectureError
from .gemm import get_num_sms, mm_fp8, mm_fp8_lora, plan, set_num_sms

__version__ = "0.1.0"
__all__ = ["gemm", "nn", "ops", "mm_fp8", "mm_fp8_lora", "plan", "set_num_sms", "get_num_sms",
           "UnsupportedArchitectureError", "__version__"]
