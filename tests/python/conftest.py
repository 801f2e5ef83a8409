import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))


def _gpu_reason():
    try:
        import torch
    except ImportError:
        return "torch is not installed"
    if not torch.cuda.is_available():
        return "no CUDA GPU on this machine: the GPU suite runs on an SM90 device (scripts/gpu-check)"
    major, minor = torch.cuda.get_device_capability()
    if (major, minor) != (9, 0):
        return f"cake's programs run on SM90 today; this device is compute capability {major}.{minor}"
    return None


GPU_SKIP_REASON = _gpu_reason()


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs an SM90 GPU; skipped with the reason elsewhere")
    config.addinivalue_line("markers", "slow: large shapes; skipped when CAKE_QUICK=1")


def pytest_collection_modifyitems(config, items):
    quick = os.environ.get("CAKE_QUICK") == "1"
    for item in items:
        if "gpu" in item.keywords and GPU_SKIP_REASON:
            item.add_marker(pytest.mark.skip(reason=GPU_SKIP_REASON))
        elif "slow" in item.keywords and quick:
            item.add_marker(pytest.mark.skip(reason="CAKE_QUICK=1: large shapes skipped"))
