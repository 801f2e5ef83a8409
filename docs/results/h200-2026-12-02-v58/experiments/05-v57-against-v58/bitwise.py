"""Hashes cake's outputs over shapes that reach every program, for a bitwise comparison of two builds."""
import hashlib, json, sys
import torch
import cake

out_path = sys.argv[1]
shapes = [(1, 4096, 4096), (16, 6144, 4096), (40, 4096, 8192), (64, 4096, 4096), (100, 4096, 6144), (128, 6144, 4096),
          (128, 28672, 4096), (160, 4096, 4096), (192, 4096, 2048), (320, 4096, 4096), (384, 4608, 4096),
          (512, 4096, 4096), (512, 6144, 4096), (512, 28672, 4096), (1024, 1280, 8192), (2048, 4096, 4096),
          (2048, 6144, 4096), (1000, 4104, 2064), (136, 7176, 8208), (3072, 2304, 2048), (256, 2560, 8192)]
res = {}
for i, (M, N, K) in enumerate(shapes):
    for r in (32, 64, 128):
        for bias_on in (False, True):
            g = torch.Generator(device="cuda").manual_seed(1000 * i + r + bias_on)
            a = (torch.randn(M, K, device="cuda", generator=g) * 0.5).to(torch.float8_e4m3fn)
            b = (torch.randn(N, K, device="cuda", generator=g) * 0.5).to(torch.float8_e4m3fn)
            d = torch.randn(M, r, device="cuda", generator=g).to(torch.bfloat16)
            lb = (torch.randn(N, r, device="cuda", generator=g) * 0.1).to(torch.bfloat16)
            bias = torch.randn(N, device="cuda", generator=g).to(torch.bfloat16) if bias_on else None
            sa = torch.tensor([0.7], device="cuda"); sb = torch.tensor([1.3], device="cuda"); s = torch.tensor([0.5], device="cuda")
            out = cake.mm_fp8_lora(a, b, sa, sb, d, lb, s, bias=bias)
            torch.cuda.synchronize()
            res[f"{M}x{N}x{K} r{r} bias{int(bias_on)}"] = hashlib.sha256(out.view(torch.int16).cpu().numpy().tobytes()).hexdigest()
json.dump(res, open(out_path, "w"), indent=0)
print(len(res), "cases hashed")
