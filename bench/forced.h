// Experiments' forced plans: a Hopper program, split-K, rows, promotion depth or
// multicast chosen by hand in place of the plan's (cake_bench and cake_plan take
// the same flags, and launch / list the same plan). Pure C++, no CUDA.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "cake/errors.h"
#include "cake/plan.h"
#include "sm90/programs.h"

namespace cake::bench {

// --program NAME runs that Hopper program, --split S forces its split-K, --rows R
// its rows per P tile, --promote K its promotion depth (64 or 128), --multicast
// 1|2|m|n its multicast off / on in CTA pairs lying the program's usual way / along
// M / along N (on: wherever the program can pair its CTAs so; the others run the
// plan's choice, said once per shape), --one-region the plan's program on
// all of out (no second region), --raster G its tiles' grouped raster (G tiles
// along P before a step along Q; 1: along Q first). None of them: cake chooses.
struct Forcing {
  std::string program;
  int split = 0, rows = 0, promotion = 0, multicast = 0, raster = 0;
  bool one_region = false;

  bool any() const { return split || rows || promotion || multicast || raster || one_region || !program.empty(); }

  // Takes argv[i] (and its value) when it is one of the flags above.
  bool parse(int argc, char** argv, int& i) {
    const std::string arg = argv[i];
    if (arg == "--one-region") return one_region = true;
    if (i + 1 >= argc) return false;
    if (arg == "--program") program = argv[++i];
    else if (arg == "--split") split = std::stoi(argv[++i]);
    else if (arg == "--rows") rows = std::stoi(argv[++i]);
    else if (arg == "--promote") promotion = std::stoi(argv[++i]);
    else if (arg == "--multicast") {
      const std::string v = argv[++i];
      // kMulticastAlongM / N (cake/plan.h), spelled as numbers so that this table
      // also builds against earlier plans (scripts/plan-diff).
      multicast = v == "m" ? 3 : v == "n" ? 4 : std::stoi(v);
    }
    else if (arg == "--raster") raster = std::stoi(argv[++i]);
    else return false;
    return true;
  }

  // The forced program's plan on all of out; throws cake::InvalidArgument where
  // the program is unknown or cannot run the shape with the forced split or rows.
  // Where the forced pairs cannot lie that way it is the program's plan with its own
  // pairing, and `fallback` (if given) gets why: a line of results must say so.
  Plan plan(int64_t M, int64_t N, int64_t K, int64_t r, int sms, std::string* fallback = nullptr) const {
    Plan p = forced(M, N, K, r, sms, fallback);
    if (raster > 0) p.raster_group = raster;
    return p;
  }

 private:
  Plan forced(int64_t M, int64_t N, int64_t K, int64_t r, int sms, std::string* fallback) const {
    Program prog = cake::plan(M, N, K, r, Arch::SM90, sms).program;
    if (!program.empty()) {
      bool known = false;
      for (Program p : sm90::kPrograms)
        if (program == program_name(p)) prog = p, known = true;
      if (!known) throw InvalidArgument(program + " is not a Hopper program");
    }
    try {
      return plan_sm90_program(prog, M, N, K, sms, split, rows, promotion, multicast);
    } catch (const InvalidArgument& e) {
      if (multicast < 2) throw;
      static std::string said;
      const std::string shape = std::to_string(M) + "," + std::to_string(N) + "," + std::to_string(K);
      if (said != shape) std::fprintf(stderr, "(%s: no multicast pairs: %s)\n", shape.c_str(), e.what());
      said = shape;
      if (fallback) *fallback = e.what();
      return plan_sm90_program(prog, M, N, K, sms, split, rows, promotion, 0);
    }
  }
};

}  // namespace cake::bench
