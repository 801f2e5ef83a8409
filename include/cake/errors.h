// cake: the exceptions every entry point throws.
//
// A rejected call throws before anything is launched or written.
#pragma once

#include <stdexcept>
#include <string>

namespace cake {

// A call that breaks the argument contract (docs/contract.md). The message names
// the rule and the offending value, e.g.
//   "mm_fp8_lora: N must be a positive multiple of 8 (got N=100)".
// Python sees it as ValueError.
class InvalidArgument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The device is not one cake has programs for (or not yet). The message names the
// device's compute capability and the supported ones. Python sees it as
// cake.UnsupportedArchitectureError, a RuntimeError.
class UnsupportedArchitecture : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A CUDA runtime or driver call failed (launch failure, out of resources, ...).
class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace cake
