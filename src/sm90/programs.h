// The Hopper programs as values: from a cake::Program to its compile-time shape,
// and the list of them, both expanded from config.h's CAKE_SM90_PROGRAMS.
#pragma once

#include "cake/plan.h"
#include "sm90/config.h"

namespace cake::sm90 {

// Calls f(Shape{}) with the shape of `program`; false when it is not a Hopper program.
template <typename F>
bool with_shape(Program program, F&& f) {
  switch (program) {
#define CAKE_SM90_CASE(program_, shape_) \
  case Program::program_:                \
    f(shape_{});                         \
    return true;
    CAKE_SM90_PROGRAMS(CAKE_SM90_CASE)
#undef CAKE_SM90_CASE
    default: return false;
  }
}

#define CAKE_SM90_ENUMERATOR(program_, shape_) Program::program_,
inline constexpr Program kPrograms[] = {CAKE_SM90_PROGRAMS(CAKE_SM90_ENUMERATOR)};
#undef CAKE_SM90_ENUMERATOR

}  // namespace cake::sm90
