#include "sm90/program_launch.cuh"

namespace cake::sm90 {
template void run_program<ShapeSwap192x128>(const TensorMaps&, const ProgramParams&, int, int, cudaStream_t);
template int max_active_clusters<ShapeSwap192x128>(int);
}  // namespace cake::sm90
