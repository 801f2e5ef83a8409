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


def pytest_terminal_summary(terminalreporter):
    from reference import ACCURACY_LOG, FROBENIUS_MIN_ELEMENTS

    if not ACCURACY_LOG:
        return
    big = [(label, acc) for label, n, acc in ACCURACY_LOG if n >= FROBENIUS_MIN_ELEMENTS]
    worst_excess = max(ACCURACY_LOG, key=lambda x: x[2].worst_excess)
    tr = terminalreporter
    tr.section("accuracy against fp64 (all checked calls)")
    tr.write_line(f"calls checked: {len(ACCURACY_LOG)}")
    tr.write_line(f"worst element: {worst_excess[2].worst_excess:.3f} x (1 bf16 ulp + 1e-3 rms) at {worst_excess[0]}")
    if big:
        worst_ratio = max(big, key=lambda x: x[1].ratio)
        tr.write_line(f"worst relative Frobenius error: {worst_ratio[1].ratio:.4f} x the bf16 floor at {worst_ratio[0]}"
                      f" ({len(big)} calls with >= {FROBENIUS_MIN_ELEMENTS} outputs)")
    for label, n, acc in ACCURACY_LOG:
        if label.startswith("M=256 N=1024"):
            tr.write_line(f"  {label}: ratio {acc.ratio:.4f}, floor {acc.floor:.3e}, worst element {acc.worst_excess:.3f}")
