// The plan's entry: plan() (a pure function of M, N, K, r, architecture, SM count
// and DRAM bandwidth, cached per thread), and the names of architectures and programs.
// Each architecture's choice is in a file of its own: sm90_choice.cpp (which Hopper
// program) over sm90_program.cpp (one program's tiles), sm100.cpp (Blackwell).
#include "cake/plan.h"

#include <cctype>
#include <sstream>
#include <string>

#include "cake/errors.h"
#include "plan/sm100.h"
#include "plan/sm90.h"

namespace cake {

const char* arch_name(Arch arch) {
  switch (arch) {
    case Arch::SM90: return "sm90";
    case Arch::SM100: return "sm100";
    case Arch::SM103: return "sm103";
  }
  return "?";
}

std::optional<Arch> parse_arch(const std::string& name) {
  std::string s;
  for (char c : name)
    if (std::isalnum(static_cast<unsigned char>(c))) s += static_cast<char>(std::tolower(c));
  if (s.rfind("sm", 0) == 0) s = s.substr(2);
  if (s == "90" || s == "90a") return Arch::SM90;
  if (s == "100" || s == "100a") return Arch::SM100;
  if (s == "103" || s == "103a") return Arch::SM103;
  return std::nullopt;
}

std::optional<Arch> arch_from_compute_capability(int major, int minor) {
  if (major == 9 && minor == 0) return Arch::SM90;
  if (major == 10 && minor == 0) return Arch::SM100;
  if (major == 10 && minor == 3) return Arch::SM103;
  return std::nullopt;
}

const char* program_name(Program program) {
  switch (program) {
    case Program::kHopper128x128: return "fp8_hopper_128x128";
    case Program::kHopper192x128: return "fp8_hopper_192x128";
    case Program::kHopperSwap128x64: return "fp8_hopper_swap_128x64";
    case Program::kHopperSwap64x64: return "fp8_hopper_swap_64x64";
    case Program::kHopperSwap64x16: return "fp8_hopper_swap_64x16";
    case Program::kHopperSwap64x32: return "fp8_hopper_swap_64x32";
    case Program::kHopperSwap64x128: return "fp8_hopper_swap_64x128";
    case Program::kHopperSwap192x128: return "fp8_hopper_swap_192x128";
    case Program::kHopper64x96: return "fp8_hopper_64x96";
    case Program::kHopperSwap128x80: return "fp8_hopper_swap_128x80";
    case Program::kHopperSwap128x96: return "fp8_hopper_swap_128x96";
    case Program::kHopperSwap64x80: return "fp8_hopper_swap_64x80";
    case Program::kHopperSwap64x96: return "fp8_hopper_swap_64x96";
    case Program::kHopper128x112: return "fp8_hopper_128x112";
    case Program::kHopper128x144: return "fp8_hopper_128x144";
    case Program::kHopper128x80: return "fp8_hopper_128x80";
    case Program::kHopper192x112: return "fp8_hopper_192x112";
    case Program::kHopper128x160: return "fp8_hopper_128x160";
    case Program::kHopperSwap128x160: return "fp8_hopper_swap_128x160";
    case Program::kHopper256x128: return "fp8_hopper_256x128";
    case Program::kBlackwellStatic: return "fp8_blackwell_static";
    case Program::kBlackwellL2Point: return "fp8_blackwell_l2_point";
    case Program::kBlackwellTileM: return "fp8_blackwell_tile_m";
  }
  return "?";
}

namespace {

// Each architecture's plan in its own file: sm90_*.cpp, sm100.cpp.
Plan compute_plan(int64_t M, int64_t N, int64_t K, Arch arch, int num_sms, int dram_gbps) {
  return arch == Arch::SM90 ? planner::plan_sm90(M, N, K, num_sms, dram_gbps)
                            : planner::plan_sm100(arch, M, N, K, num_sms);
}

// The last plans of this thread, by problem: a serving engine asks for the same
// few shapes on every call, and the two-region search costs up to 3 us of CPU
// per plan on the build machine (M = 2048, N = K = 8192; 0.1 us at decode; a hit
// 0.02 us). Per thread, so no lock; direct-mapped, so a lookup is one hash and one
// compare.
struct PlanCache {
  struct Entry {
    int64_t M = 0, N = 0, K = 0, r = 0;
    Arch arch = Arch::SM90;
    int num_sms = 0;  // 0: empty
    int dram_gbps = 0;
    Plan plan{};
  };
  static constexpr size_t kEntries = 64;
  Entry entries[kEntries];

  static size_t slot(int64_t M, int64_t N, int64_t K, int64_t r, Arch arch, int num_sms, int dram_gbps) {
    uint64_t h = static_cast<uint64_t>(M) * 0x9E3779B97F4A7C15ull;
    h = (h ^ static_cast<uint64_t>(N)) * 0xC2B2AE3D27D4EB4Full;
    h = (h ^ static_cast<uint64_t>(K)) * 0x165667B19E3779F9ull;
    h = (h ^ static_cast<uint64_t>(r)) * 0xC2B2AE3D27D4EB4Full;
    h = (h ^ (static_cast<uint64_t>(arch) << 32 | static_cast<uint32_t>(num_sms))) * 0x9E3779B97F4A7C15ull;
    h = (h ^ static_cast<uint64_t>(dram_gbps)) * 0xC2B2AE3D27D4EB4Full;
    return static_cast<size_t>(h >> 58);  // top 6 bits: kEntries
  }
};

}  // namespace

Plan plan(int64_t M, int64_t N, int64_t K, int64_t r, Arch arch, int num_sms, int dram_gbps) {
  if (M < 1 || N < 1 || K < 1 || r < 0 || num_sms < 1 || dram_gbps < 0) {
    std::ostringstream os;
    os << "plan: sizes must be positive, num_sms >= 1 and dram_gbps >= 0 (got M=" << M << ", N=" << N
       << ", K=" << K << ", r=" << r << ", num_sms=" << num_sms << ", dram_gbps=" << dram_gbps << ")";
    throw InvalidArgument(os.str());
  }
  thread_local PlanCache cache;
  PlanCache::Entry& e = cache.entries[PlanCache::slot(M, N, K, r, arch, num_sms, dram_gbps)];
  if (e.num_sms == num_sms && e.dram_gbps == dram_gbps && e.M == M && e.N == N && e.K == K && e.r == r &&
      e.arch == arch)
    return e.plan;
  e.plan = compute_plan(M, N, K, arch, num_sms, dram_gbps);
  e.M = M, e.N = N, e.K = K, e.r = r, e.arch = arch, e.num_sms = num_sms, e.dram_gbps = dram_gbps;
  return e.plan;
}

}  // namespace cake
