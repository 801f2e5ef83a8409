"""Part B of 02-rows-scan.txt (132 SMs): per shape the fastest of the eight forced configurations
(40..64-row tiles, unsplit or split in two), the plan's time over it, and the pick of a time model
(a stage takes the longer of a floor and the memory's share of all CTAs' weight rows)."""
import re, collections, math, sys
d = collections.defaultdict(list); part=cfg=None
for line in open('02-rows-scan.txt'):
    m = re.match(r'=== round \d (\w) \[(.*)\]', line)
    if m: part, cfg = m.group(1), m.group(2); continue
    if '|' not in line: continue
    a = line.split('|')[0].split(); t = float(line.split('|')[1].split()[0])
    d[(part, cfg, int(a[0]), int(a[1]), int(a[2]))].append(t)
B = {k[1:]: min(v) for k, v in d.items() if k[0]=='B'}
shapes = sorted({k[1:] for k in B})
cfgs = [c for c in dict.fromkeys(k[0] for k in B) if c.startswith('--rows')]
def model(M,N,K,rows,split,sms=132,f16=125,f64=148,bw=4400.,ho=2.5):
    toks = min(64, -(-M//8)*8)
    fl = f16 + (f64-f16)*max(0,toks-16)/48
    kb = -(-K//128); tiles = -(-N//rows)
    if split==1: workers=sms; per=kb; c=1
    else: workers=sms//2; per=-(-kb//2)+ho; c=2
    t=0; left=tiles
    while left>0:
        w=min(left,workers); ctas=w*c
        t+=per*max(fl, ctas*rows*128/bw); left-=w
    return t/1000
def run(verbose, **kw):
    tp=tm=0; n=0
    for s in shapes:
        M,N,K=s
        meas={c:B[(c,)+s] for c in cfgs}
        best=min(meas.values()); bc=min(meas,key=meas.get)
        est={c:model(M,N,K,int(c.split()[1]),int(c.split()[3]),**kw) for c in meas}
        pick=min(est,key=est.get); pl=B[('plan',)+s]
        tp+=math.log(pl/best); tm+=math.log(meas[pick]/best); n+=1
        if verbose: print(f"{M:3d} {N:6d} {K:6d} | {bc:20s} {best:7.2f} | plan {pl/best:.3f} | model {pick:20s} {meas[pick]/best:.3f}")
    return math.exp(tp/n), math.exp(tm/n)
print(run(True))
for bw in (4000,4200,4400,4600):
  for f in (100,125,150):
    for ho in (1,2.5,4):
      print(bw,f,ho,run(False,bw=bw,f16=f,f64=f+23,ho=ho))
