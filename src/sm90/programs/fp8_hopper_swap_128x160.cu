#include "sm90/program_launch.cuh"

namespace cake::sm90 {
CAKE_SM90_INSTANTIATE(ShapeSwap128x160)
}  // namespace cake::sm90
