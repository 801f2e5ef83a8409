# TVM-FFI: the binding's ABI. Its headers and libtvm_ffi come from the
# apache-tvm-ffi wheel; the module built here is independent of the Python version.
if(NOT Python_EXECUTABLE)
  message(FATAL_ERROR "cake: the Python binding needs a Python with apache-tvm-ffi")
endif()
execute_process(COMMAND ${Python_EXECUTABLE} -m tvm_ffi.config --cmakedir
  OUTPUT_VARIABLE _tvm_ffi_cmake OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc ERROR_QUIET)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "cake: pip install apache-tvm-ffi (or -DCAKE_BUILD_PYTHON=OFF)")
endif()
find_package(tvm_ffi CONFIG REQUIRED PATHS ${_tvm_ffi_cmake} NO_DEFAULT_PATH)
