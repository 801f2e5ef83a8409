"""Part A of 02-rows-scan.txt: per CTA, the K loop's time per K block and its weight stream, from the
difference of K = 16384 and K = 4096 (96 K blocks; what does not grow with K cancels). Best of the rounds.
python3 rate.py 02-rows-scan.txt"""
import re, sys, collections
d = collections.defaultdict(list); part = rows = None
for line in open(sys.argv[1]):
    m = re.match(r'=== round \d (\w) \[(.*)\]', line)
    if m:
        part = m.group(1); r = re.search(r'--rows (\d+)', m.group(2)); rows = int(r.group(1)) if r else None
        continue
    if part != 'A' or '|' not in line: continue
    a = line.split('|')[0].split(); t = float(line.split('|')[1].split()[0])
    d[(rows, int(a[0]), int(a[1]), int(a[2]))].append(t)
print(" rows CTAs   M |  t4096  t16384 | ns/Kblock  GB/s/SM  TB/s all")
for (rows, M, N, K) in sorted(d):
    if K != 4096: continue
    ctas = N // rows
    t4, t16 = min(d[(rows, M, N, 4096)]), min(d[(rows, M, N, 16384)])
    dt = (t16 - t4) * 1e3  # ns for 96 K blocks
    per = dt / 96
    gbs = rows * 128 / per  # bytes/ns = GB/s per SM
    print(f"{rows:5d} {ctas:4d} {M:3d} | {t4:6.2f} {t16:7.2f} | {per:8.1f} {gbs:8.1f} {gbs*ctas/1e3:8.2f}")
