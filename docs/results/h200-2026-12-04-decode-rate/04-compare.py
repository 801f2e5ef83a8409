"""python3 04-compare.py A.pt B.pt: how many outputs differ in any bit."""
import sys, torch
a, b = torch.load(sys.argv[1]), torch.load(sys.argv[2])
diff = [k for k in a if not torch.equal(a[k].view(torch.int16), b[k].view(torch.int16))]
nan = [k for k in b if torch.isnan(b[k].float()).any()]
print(f"{len(a)} outputs: {len(diff)} differ bitwise, {len(nan)} hold NaN", diff[:10], nan[:10])
sys.exit(1 if diff or nan else 0)
