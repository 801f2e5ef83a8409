#include "sm90/program_launch.cuh"

namespace cake::sm90 {
CAKE_SM90_INSTANTIATE(ShapeSwap64x80)
}  // namespace cake::sm90
