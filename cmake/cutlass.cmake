# CUTLASS / CuTe headers come from the pinned PyPI package nvidia-cutlass (see
# pyproject.toml and .ci/run); nothing of them is kept in this repository.
set(CAKE_CUTLASS_VERSION "4.2.0.0")
if(NOT CAKE_CUTLASS_DIR)
  if(NOT Python_EXECUTABLE)
    message(FATAL_ERROR "cake: set CAKE_CUTLASS_DIR or install nvidia-cutlass==${CAKE_CUTLASS_VERSION}")
  endif()
  execute_process(
    COMMAND ${Python_EXECUTABLE} -c
      "import cutlass_library, os; print(os.path.join(os.path.dirname(cutlass_library.__file__), 'source'))"
    OUTPUT_VARIABLE _cutlass_source OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc ERROR_QUIET)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "cake: pip install nvidia-cutlass==${CAKE_CUTLASS_VERSION} (or set CAKE_CUTLASS_DIR)")
  endif()
  set(CAKE_CUTLASS_DIR ${_cutlass_source}/include)
endif()
get_filename_component(_cutlass_root ${CAKE_CUTLASS_DIR} DIRECTORY)
if(NOT EXISTS ${CAKE_CUTLASS_DIR}/cute/arch/mma_sm90_gmma.hpp)
  message(FATAL_ERROR "cake: no CUTLASS headers under ${CAKE_CUTLASS_DIR}")
endif()
set(CAKE_CUTLASS_INCLUDE_DIRS ${CAKE_CUTLASS_DIR} ${_cutlass_root}/tools/util/include)
message(STATUS "cake: CUTLASS headers from ${CAKE_CUTLASS_DIR}")
