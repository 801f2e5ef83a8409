"""Per shape of a scan (01-04): the plan's time, its ratio to cuBLASLt fast and to the unfused path, and each forced variant's time over the plan's (best of the rounds).  python3 table.py SCAN"""
import re,collections,sys
cur=None; d=collections.defaultdict(list); order=[]
for line in open(sys.argv[1]):
    if line.startswith('==='):
        m=re.match(r'=== (?:sms (\d+) )?round (\d) \[(.*)\]',line); v=m.group(3)
        v='plan' if v=='plan' else v.replace('--program fp8_hopper_','').replace('--split ','s').replace('--multicast 2','mc').replace('r64','r64').replace(' ','')
        cur=v
        if v not in order: order.append(v)
        continue
    p=line.split('|'); a=p[0].split(); t=p[1].split()
    d[(int(a[0]),int(a[1]),int(a[2]),cur)].append((float(t[0]),float(t[2]),float(t[4])))
keys=sorted(set(k[:3] for k in d))
print("M N K | plan us (/lt, /unf) | " + " | ".join(order[1:]) + "   (each: time/plan)")
for k in keys:
    b=d[k+('plan',)]; bp=min(x[0] for x in b); lt=min(x[1] for x in b); un=min(x[2] for x in b)
    s=f"{k[0]:3d} {k[1]:6d} {k[2]:6d} | {bp:6.2f} ({bp/lt:.3f}, {bp/un:.3f}) |"
    for v in order[1:]:
        r=d.get(k+(v,))
        s+= f" {min(x[0] for x in r)/bp:.3f}" if r else "   -  "
    print(s)
