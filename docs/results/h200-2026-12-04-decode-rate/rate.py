"""Per CTA, the K loop's time per K block and its weight stream, from the difference of
K = 16384 and K = 4096 (96 K blocks; what does not grow with K cancels), best of the rounds.
Reads part A of 02-rows-scan.txt, or the builds A and B of wave-ab.sh's 05-* / 06-*.
python3 rate.py FILE"""
import collections, re, sys

d = collections.defaultdict(list)
part = rows = build = None
for line in open(sys.argv[1]):
    m = re.match(r"=== (?:(\w) )?round \d (\w) \[(.*)\]", line)
    if m:
        build, part = m.group(1) or "-", m.group(2)
        r = re.search(r"--rows (\d+)", m.group(3))
        rows = int(r.group(1)) if r else None
        continue
    if part != "A" or "|" not in line:
        continue
    a = line.split("|")[0].split()
    d[(build, rows, int(a[0]), int(a[1]), int(a[2]))].append(float(line.split("|")[1].split()[0]))
print("build rows CTAs   M |  t4096  t16384 | ns/Kblock  GB/s/SM  TB/s all")
for (build, rows, M, N, K) in sorted(d):
    if K != 4096 or (build, rows, M, N, 16384) not in d:
        continue
    ctas = N // rows
    t4, t16 = min(d[(build, rows, M, N, 4096)]), min(d[(build, rows, M, N, 16384)])
    per = (t16 - t4) * 1e3 / 96  # ns per K block
    gbs = rows * 128 / per  # bytes per ns = GB/s per SM
    print(f"{build:>5} {rows:4d} {ctas:4d} {M:3d} | {t4:6.2f} {t16:7.2f} | {per:8.1f} {gbs:8.1f} {gbs * ctas / 1e3:8.2f}")
