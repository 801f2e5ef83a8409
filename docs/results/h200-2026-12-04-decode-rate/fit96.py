"""01-plan-ab-96.txt: does the stage-floor time model (fit.py) pick the faster of the two plans?"""
import re, math
def model(M,N,K,rows,split,sms,f16=125,f64=148,bw=4400.,ho=2.5,tpc=False):
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
rows=[]
for line in open('01-plan-ab-96.txt'):
    m=re.match(r'\s+(\d+),(\d+),(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+\S+ \d+x(\d+) s(\d) g\d+ -> \S+ \d+x(\d+) s(\d) g\d+',line)
    if m: rows.append([int(m.group(i)) for i in (1,2,3)]+[float(m.group(i)) for i in (4,5,6)]+[int(m.group(i)) for i in (7,8,9,10)])
for bw in (3600,4000,4400):
  for f in (110,125,140):
    good=0; loss=0
    for M,N,K,ta,tb,r,ra,sa,rb,sb in rows:
        ea=model(M,N,K,ra,sa,96,f16=f,f64=f+23,bw=bw); eb=model(M,N,K,rb,sb,96,f16=f,f64=f+23,bw=bw)
        pick_b = eb<ea; good += (pick_b == (tb<ta)); loss+=math.log((tb if pick_b else ta)/min(ta,tb))
    print(bw,f,f"{good}/{len(rows)} right, geomean over the faster {math.exp(loss/len(rows)):.4f}")
for M,N,K,ta,tb,r,ra,sa,rb,sb in rows:
    ea=model(M,N,K,ra,sa,96,bw=4000); eb=model(M,N,K,rb,sb,96,bw=4000)
    print(f"{M:3d} {N:6d} {K:6d} A {ra}s{sa} {ta:7.2f} est {ea:6.2f} | B {rb}s{sb} {tb:7.2f} est {eb:6.2f} | {'ok' if (eb<ea)==(tb<ta) else 'WRONG'}")
