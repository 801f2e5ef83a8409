"""Reads scripts/forced-scan's runs: plans and forced programs, shape by shape.

    python3 bench/forced_scan.py DIR [--plan-table build/bench/cake_plan]
                                     [--other-plan-table OTHER/bench/cake_plan]
                                        # DIR/configs.txt and DIR/p<pass>-<line>/bench.csv

Per line of configs.txt (`M,N,K|cake_bench flags`): cake's time in each pass and
their median, the median over the passes of its time over the shape's first line
in the same pass (the reference, normally the plan), the same of its time over
cuBLASLt's (fast accumulation) in its own process against the reference's (cuBLASLt's
time moves from process to process: bench/plan_ab.py), and its time over cuBLASLt's and
over the unfused path, per pass. A line whose benchmark check failed in any pass is
marked FAILED; one that did not run is left out. Every process's row is also written
to DIR/runs.csv (plan_table.write_runs).
With --plan-table (cake_plan) each line also shows what it launched: tiles,
split-K, pairs and grid (132 SMs, the H200); lines with the flag `--other` (run by
the other build, scripts/forced-scan --other-build) what the other build's
cake_plan says, where --other-plan-table gives it. A line whose flags a
cake_plan does not take shows them alone.
"""
import os
import statistics
import subprocess
import sys

import plan_table


def main():
    args = sys.argv[1:]
    binary = plan_table.take_option(args)
    other_binary = plan_table.take_option(args, '--other-plan-table')
    d = args[0] if args else 'results/forced-scan'
    configs = [line.rstrip('\n').split('|', 1) for line in open(os.path.join(d, 'configs.txt')) if line.strip()]
    runs = {}  # line -> {pass: row at r = 128}
    passes = set()
    rows = plan_table.process_rows(d)
    for name, row in rows.items():
        p, _, i = name[1:].partition('-')
        if name.startswith('p') and p.isdigit() and i.isdigit():
            runs.setdefault(int(i), {})[int(p)] = row
            passes.add(int(p))
    if not runs:
        print(f"forced_scan: no runs in {d}", file=sys.stderr)
        return 1
    print(f"{len(passes)} passes; per line: cake us per pass (median), over the shape's first line "
          f"(median of per-pass ratios; then the same of cake over cuBLASLt fast in each process), "
          f"over cuBLASLt fast and over the unfused path per pass")
    dram = plan_table.board_dram(d)
    plan_table.write_runs(d, rows)
    first = {}  # shape -> its first line
    for i, (shape, flags) in enumerate(configs, 1):
        first.setdefault(shape, i)
        r = runs.get(i)
        if not r:
            continue
        t = {p: float(x['cake_us']) for p, x in r.items()}
        ref = runs.get(first[shape], {})
        ratios = [t[p] / float(ref[p]['cake_us']) for p in t if p in ref]
        over = [float(r[p]['cake_over_cublaslt']) / float(ref[p]['cake_over_cublaslt']) for p in t if p in ref]
        vs_ref = (f"{statistics.median(ratios):6.3f} {statistics.median(over):6.3f}" if ratios and first[shape] != i
                  else "   ref    ref")
        fmt = lambda key: '/'.join(f"{float(r[p][key]):.3f}" for p in sorted(r))
        failed = '  FAILED' if any(x['check_ok'] != '1' for x in r.values()) else ''
        words = flags.split()
        table = other_binary if '--other' in words else binary
        if table:
            try:
                args_ = ['--shape', shape] + [w for w in words if w != '--other']
                launched = next(iter(plan_table.table(table, args_, dram).values()))
                flags = f"{flags.strip() or '(plan)'} [{plan_table.short(launched)}]"
            except (subprocess.CalledProcessError, StopIteration, IndexError, ValueError):
                pass
        print(f"{shape:>16} {flags.strip() or '(plan)':60s} "
              f"{'/'.join(f'{t[p]:.2f}' for p in sorted(t))} ({statistics.median(t.values()):.2f})  {vs_ref}"
              f"  cuBLASLt {fmt('cake_over_cublaslt')}  unfused {fmt('cake_over_unfused')}{failed}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
