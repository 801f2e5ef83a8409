"""A decode time model (a stage takes the longer of a floor and the memory's share of every
CTA's weight rows, wave by wave, with a split's hand-over) against the forced configurations
of part B of 02-rows-scan.txt (132 SMs): per shape the fastest of the eight (40..64-row tiles,
unsplit or split in two), the plan's time over it, and the model's pick.
python3 fit.py   (fit96.py uses `model` on 01-plan-ab-96.txt)"""
import collections, math, re


def model(M, N, K, rows, split, sms=132, f16=125, f64=148, bw=4400.0, ho=2.5):
    """Estimated K-loop time in us: floor f16..f64 ns per K block (by tokens), bw bytes/ns."""
    toks = min(64, -(-M // 8) * 8)
    floor = f16 + (f64 - f16) * max(0, toks - 16) / 48
    kb, tiles = -(-K // 128), -(-N // rows)
    workers, per, ctas_per = (sms, kb, 1) if split == 1 else (sms // 2, -(-kb // 2) + ho, 2)
    t, left = 0.0, tiles
    while left > 0:
        w = min(left, workers)
        t += per * max(floor, w * ctas_per * rows * 128 / bw)
        left -= w
    return t / 1000


def main():
    d = collections.defaultdict(list)
    part = cfg = None
    for line in open("02-rows-scan.txt"):
        m = re.match(r"=== round \d (\w) \[(.*)\]", line)
        if m:
            part, cfg = m.group(1), m.group(2)
            continue
        if "|" not in line:
            continue
        a = line.split("|")[0].split()
        d[(part, cfg, int(a[0]), int(a[1]), int(a[2]))].append(float(line.split("|")[1].split()[0]))
    B = {k[1:]: min(v) for k, v in d.items() if k[0] == "B"}
    shapes = sorted({k[1:] for k in B})
    cfgs = [c for c in dict.fromkeys(k[0] for k in B) if c.startswith("--rows")]

    def run(verbose, **kw):
        tp = tm = 0.0
        for s in shapes:
            M, N, K = s
            meas = {c: B[(c,) + s] for c in cfgs}
            best = min(meas.values())
            est = {c: model(M, N, K, int(c.split()[1]), int(c.split()[3]), **kw) for c in meas}
            pick, plan = min(est, key=est.get), B[("plan",) + s]
            tp += math.log(plan / best)
            tm += math.log(meas[pick] / best)
            if verbose:
                print(f"{M:3d} {N:6d} {K:6d} | {min(meas, key=meas.get):20s} {best:7.2f} | "
                      f"plan {plan / best:.3f} | model {pick:20s} {meas[pick] / best:.3f}")
        return math.exp(tp / len(shapes)), math.exp(tm / len(shapes))

    print("geomean over the fastest: plan, model", run(True))
    for bw in (4000, 4200, 4400, 4600):
        for f in (100, 125, 150):
            for ho in (1, 2.5, 4):
                print(bw, f, ho, run(False, bw=bw, f16=f, f64=f + 23, ho=ho))


if __name__ == "__main__":
    main()
