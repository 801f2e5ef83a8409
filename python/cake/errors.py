"""Exceptions raised by cake besides ValueError (argument contract)."""

import tvm_ffi


@tvm_ffi.register_error
class UnsupportedArchitectureError(RuntimeError):
    """The device is not one cake has programs for.

    The message names the device's compute capability and the supported ones.
    ``backend="cake"`` fails closed: there is never a fallback to another library.
    """
