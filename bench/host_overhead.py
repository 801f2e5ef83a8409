"""Host (CPU) cost of one Python call of cake, no sync: argument checks in C++,
plan, tensor maps and the launch, plus the Python layer."""

import statistics
import time

import torch

import cake


def per_call_us(fn, calls=100, rounds=7):
    times = []
    for _ in range(rounds):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(calls):  # few enough that the launch queue never fills
            fn()
        times.append((time.perf_counter() - t0) / calls * 1e6)
    torch.cuda.synchronize()
    return statistics.median(times)


def main():
    M, N, K, r = 16, 4096, 4096, 128
    dev = "cuda"
    a = torch.randn(M, K, device=dev).to(torch.float8_e4m3fn)
    b = torch.randn(N, K, device=dev).to(torch.float8_e4m3fn)
    one = torch.ones(1, device=dev)
    d = torch.randn(M, r, device=dev, dtype=torch.bfloat16)
    lb = torch.randn(N, r, device=dev, dtype=torch.bfloat16)
    s = torch.full((1,), 0.1, device=dev)
    out = torch.empty(M, N, device=dev, dtype=torch.bfloat16)
    for _ in range(10):
        cake.mm_fp8_lora(a, b, one, one, d, lb, s, out=out)
        torch._scaled_mm(a, b.t(), one, one, out_dtype=torch.bfloat16)
    given = per_call_us(lambda: cake.mm_fp8_lora(a, b, one, one, d, lb, s, out=out))
    alloc = per_call_us(lambda: cake.mm_fp8_lora(a, b, one, one, d, lb, s))
    op = torch.ops.cake.mm_fp8_lora
    custom = per_call_us(lambda: op(a, b, one, one, d, lb, s, None, out))
    scaled = per_call_us(lambda: torch._scaled_mm(a, b.t(), one, one, out_dtype=torch.bfloat16))
    print(f"host overhead (Python, M={M} N={N} K={K} r={r}): cake.mm_fp8_lora {given:.2f} us/call with out=, "
          f"{alloc:.2f} us allocating out; torch.ops.cake.mm_fp8_lora (the custom op, for torch.compile) "
          f"{custom:.2f} us; torch._scaled_mm (cuBLASLt, no adapter) {scaled:.2f} us")


if __name__ == "__main__":
    main()
