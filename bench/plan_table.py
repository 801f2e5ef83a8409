"""cake_plan's table (bench/plan_table.cpp) read from Python: what cake launches
per shape, for the readers of the benchmark's sweeps (plan_gaps.py, forced_scan.py,
plan_ab.py); and what those readers share of the runs themselves (the board's DRAM
bandwidth, a bench.csv's row, every process's row in one file).
"""
import csv
import glob
import os
import re
import subprocess


def table(binary, args, dram_gbps=0):
    """{(M, N, K): text}: `binary args...` parsed, text being the regions as
    cake_plan prints them ('fp8_hopper_swap_64x96 256x1280: 96x64 tiles 60 ...'),
    planned for a board of dram_gbps (0: unknown) where the table takes that input."""
    def run(a):
        return subprocess.run([binary] + list(a), capture_output=True, text=True, check=True).stdout
    try:
        out = run(list(args) + (['--dram-gbps', str(dram_gbps)] if dram_gbps else []))
    except subprocess.CalledProcessError:
        if not dram_gbps:
            raise
        out = run(args)  # a cake_plan from before the plan took the board's DRAM bandwidth
    found = {}
    for line in out.splitlines():
        head, _, text = line.partition(':')
        found[tuple(int(x) for x in head.split())] = text.strip()
    return found


def short(text):
    """A region list in a few words: 'swap_64x96 96x64 s2 g120' (program, tile,
    split-K, grid; pairs where there are some), regions joined by ' + '."""
    if text.startswith('cannot run'):
        return text
    out = []
    for r in (x.split() for x in text.split(' | then ')):
        pairs = '' if r[10] == '1x1' else f" pairs {r[10]}"
        out.append(f"{r[0].replace('fp8_hopper_', '')} {r[2]} s{r[8]}{pairs} g{r[12]}")
    return ' + '.join(out)


def take_option(args, name='--plan-table'):
    """Removes 'NAME PATH' (by default --plan-table) from the argument list args;
    returns PATH or None."""
    if name not in args:
        return None
    i = args.index(name)
    path = args[i + 1]
    del args[i:i + 2]
    return path


def board_dram(d):
    """The DRAM bandwidth (GB/s) the benchmark's runs under directory d were planned
    for: the first dram_gbps a bench.json records (0 where none does: runs of builds
    from before the plan took it)."""
    # Read as text: before cake_bench wrote null for them, runs with --no-ceilings
    # recorded their skipped ceilings as nan, which no JSON parser takes.
    for f in sorted(glob.glob(os.path.join(d, '**', 'bench.json'), recursive=True)):
        try:
            found = re.search(r'"dram_gbps":\s*(\d+)', open(f).read())
        except OSError:
            continue
        if found and int(found.group(1)):
            return int(found.group(1))
    return 0


def bench_row(path, r='128'):
    """The row at rank r of one cake_bench --out bench.csv (a dict), or None."""
    return next((row for row in csv.DictReader(open(path)) if row['r'] == r), None)


def process_rows(d):
    """Each process's row at r = 128 under directory d (one cake_bench --out directory
    each), by the directory's name, in name order."""
    rows = {}
    for name in sorted(os.listdir(d)):
        f = os.path.join(d, name, 'bench.csv')
        row = bench_row(f) if os.path.exists(f) else None
        if row:
            rows[name] = row
    return rows


def write_runs(d, rows, out='runs.csv'):
    """rows (process_rows(d)) in one CSV, d/runs.csv, its first column the process's
    directory: small enough to keep beside a summary, so that the runs can be read again."""
    if rows:
        header = ['process'] + list(next(iter(rows.values())))
        with open(os.path.join(d, out), 'w', newline='') as f:
            csv.writer(f).writerows([header] + [[name] + list(row.values()) for name, row in rows.items()])
