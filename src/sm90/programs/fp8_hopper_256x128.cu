#include "sm90/program_launch.cuh"

namespace cake::sm90 {
CAKE_SM90_INSTANTIATE(Shape256x128)
}  // namespace cake::sm90
