#include "sm90/program_launch.cuh"

namespace cake::sm90 {
template void run_program<ShapeSwap64x64>(const TensorMaps&, const ProgramParams&, int, int, cudaStream_t);
template int max_active_clusters<ShapeSwap64x64>(int);
}  // namespace cake::sm90
