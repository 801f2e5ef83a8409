"""Outputs of the plan on decode and mid shapes (the swap programs, both promotion depths,
K tails, narrow and split tiles), fixed seeds, saved to compare two builds bit for bit.
python3 04-bitwise.py OUT.pt   (with the build's python/ on PYTHONPATH)"""
import sys, torch, cake
shapes = [(m, n, k) for m in (1, 7, 16, 24, 32, 40, 64, 96, 128) for n, k in
          ((4096, 4096), (10240, 16400), (5280, 2048), (2056, 1040), (28672, 8192), (6144, 14336))]
outs = {}
for i, (m, n, k) in enumerate(shapes):
    g = torch.Generator(device="cuda").manual_seed(1000 + i)
    r = (32, 64, 128)[i % 3]
    a = (torch.randn(m, k, device="cuda", generator=g) * 0.5).to(torch.float8_e4m3fn)
    b = (torch.randn(n, k, device="cuda", generator=g) * 0.5).to(torch.float8_e4m3fn)
    d = torch.randn(m, r, device="cuda", generator=g).to(torch.bfloat16)
    lb = (torch.randn(n, r, device="cuda", generator=g) * 0.1).to(torch.bfloat16)
    one = torch.ones(1, device="cuda")
    for s in (0.5, 0.0):
        out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
        cake.mm_fp8_lora(a, b, one * 0.02, one * 0.03, d, lb, one * s, out=out)
        outs[f"{m},{n},{k},{r},{s}"] = out.cpu()
torch.save(outs, sys.argv[1])
print(len(outs), "outputs of", len(shapes), "shapes")
