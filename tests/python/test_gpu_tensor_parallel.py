"""Runs tests/distributed/tp_check.py with torchrun on two GPUs (skipped with fewer)."""

import os
import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.gpu


def test_tensor_parallel_two_gpus():
    import torch

    if torch.cuda.device_count() < 2:
        pytest.skip(f"tensor-parallel check needs 2 GPUs (this machine has {torch.cuda.device_count()})")
    script = os.path.join(os.path.dirname(__file__), "..", "distributed", "tp_check.py")
    torchrun = shutil.which("torchrun")
    cmd = [torchrun] if torchrun else [sys.executable, "-m", "torch.distributed.run"]
    proc = subprocess.run(cmd + ["--nproc-per-node=2", script], capture_output=True, text=True, timeout=300)
    print(proc.stdout[-4000:], proc.stderr[-4000:])
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
