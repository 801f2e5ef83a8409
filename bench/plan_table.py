"""cake_plan's table (bench/plan_table.cpp) read from Python: what cake launches
per shape, for the readers of the benchmark's sweeps (plan_gaps.py, forced_scan.py).
"""
import subprocess


def table(binary, args):
    """{(M, N, K): text}: `binary args...` parsed, text being the regions as
    cake_plan prints them ('fp8_hopper_swap_64x96 256x1280: 96x64 tiles 60 ...')."""
    out = subprocess.run([binary] + list(args), capture_output=True, text=True, check=True).stdout
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
