"""Loads the compiled cake module (TVM-FFI, independent of the Python version)."""

import os

import tvm_ffi

from . import errors  # noqa: F401  (registers UnsupportedArchitectureError)

_PATH = os.environ.get("CAKE_FFI_LIBRARY") or os.path.join(os.path.dirname(__file__), "libcake_ffi.so")
lib = tvm_ffi.load_module(_PATH)
