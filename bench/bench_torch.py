"""Python front end of the benchmark: cake against torch._scaled_mm (cuBLASLt FP8)
and the unfused path an engine runs today (torch._scaled_mm, then
out.addmm_(d, lora_b.T, alpha=s)), timed the same way as bench/bench.cu:
CUDA-graph replays of many calls, inputs rotated so weights never sit in L2, the
variants interleaved round by round after 100 ms of untimed rounds, median of the
rounds.

With --deepgemm it also times DeepGEMM's SM90 FP8 GEMM (`deep_gemm.fp8_gemm_nt`,
base product only; it must be importable) and cuBLASLt without fast accumulation.
DeepGEMM scales per 1 x 128 of a and per 128 x 128 of b, so every 128 K it
multiplies its partial sums by the two scales and adds them into fp32, a promotion
like cake's and cuBLASLt's accurate mode; here its scales are the per-tensor ones
repeated, already in the layout it needs, so that a call runs its GEMM kernel alone.

    python bench/bench_torch.py [--quick] [--shape M,N,K | --m M,... --nk N,K,...] [--r 128]
                                [--warmup MS] [--deepgemm]
"""

from __future__ import annotations

import argparse
import math
import statistics

import torch

import cake

L2_BYTES = 60 * 2**20


def time_graphs(fns, calls, reps=15, warmup_ms=100.0):
    """Per-call time (us) of each fn, as bench/bench.cu's Timer measures it: each fn is
    captured as a CUDA graph of `calls` calls (fn(i) makes call i), the graphs are
    replayed interleaved, one replay of each per round and the order reversed every
    other round, so that all of them run on the same board (its clock under the power
    cap), first untimed for warmup_ms (the clock settles about 100 ms into a load),
    then `reps` timed rounds; median per graph."""
    for fn in fns:
        fn(0)  # eager warm-up: module load, algorithm choice
    torch.cuda.synchronize()
    capture = torch.cuda.Stream()
    graphs = []
    with torch.cuda.stream(capture):
        for fn in fns:
            fn(0)
        torch.cuda.synchronize()
        for fn in fns:
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g, stream=capture):
                for i in range(calls):
                    fn(i)
            graphs.append(g)
    n = len(graphs)

    def order(rnd):
        return range(n) if rnd % 2 == 0 else range(n - 1, -1, -1)

    def event():
        return torch.cuda.Event(enable_timing=True)

    # One round sizes the warm-up; the rest of it is queued with no host wait, and
    # the timed rounds follow it on a busy board.
    start, stop = event(), event()
    start.record()
    for j in order(0):
        graphs[j].replay()
    stop.record()
    stop.synchronize()
    round_ms = start.elapsed_time(stop)
    for w in range(1, max(1, math.ceil((warmup_ms - round_ms) / max(round_ms, 1e-3))) + 1):
        for j in order(w):
            graphs[j].replay()
    events = [[(event(), event()) for _ in range(n)] for _ in range(reps)]
    for rnd in range(reps):
        for j in order(rnd):
            events[rnd][j][0].record()
            graphs[j].replay()
            events[rnd][j][1].record()
    torch.cuda.synchronize()
    return [statistics.median(events[rnd][j][0].elapsed_time(events[rnd][j][1]) * 1e3 / calls
                              for rnd in range(reps)) for j in range(n)]


def deepgemm_scales(deep_gemm, M, N, K, sa, sb):
    """Per-tensor scales as DeepGEMM's (1, 128, 128) recipe takes them: one per token
    per 128 K for a (moved once into the MN-major, TMA-aligned layout its kernel reads,
    which the call then passes through), one per 128 x 128 block for b."""
    kb = -(-K // 128)
    sfa = deep_gemm.get_mn_major_tma_aligned_tensor(sa.expand(M, kb).contiguous())
    sfb = sb.expand(-(-N // 128), kb).contiguous()
    return sfa, sfb


def measure(M, N, K, r, warmup_ms=100.0, deep_gemm=None):
    set_bytes = M * K + N * K + 2 * (M + N) * r + 2 * M * N
    nsets = max(2, math.ceil(2 * L2_BYTES / set_bytes) + 1)
    sets = []
    for _ in range(nsets):
        sets.append(dict(
            a=(torch.randn(M, K, device="cuda") * 2).to(torch.float8_e4m3fn),
            b=(torch.randn(N, K, device="cuda") * 2).to(torch.float8_e4m3fn),
            d=torch.randn(M, r, device="cuda", dtype=torch.bfloat16),
            lb=torch.randn(N, r, device="cuda", dtype=torch.bfloat16),
            out=torch.empty(M, N, device="cuda", dtype=torch.bfloat16),
        ))
    sa = torch.full((1,), 1 / math.sqrt(K), device="cuda")
    sb = torch.full((1,), 0.25, device="cuda")
    s = torch.full((1,), 0.5 / math.sqrt(r), device="cuda")
    zero = torch.zeros(1, device="cuda")
    calls = max(nsets, 20)

    def cake_fn(scale):
        def f(i):
            x = sets[i % nsets]
            cake.mm_fp8_lora(x["a"], x["b"], sa, sb, x["d"], x["lb"], scale, out=x["out"])
        return f

    def scaled(i, fast=True):
        x = sets[i % nsets]
        return torch._scaled_mm(x["a"], x["b"].t(), sa, sb, out_dtype=torch.bfloat16, use_fast_accum=fast)

    def unfused(i):
        x = sets[i % nsets]
        y = torch._scaled_mm(x["a"], x["b"].t(), sa, sb, out_dtype=torch.bfloat16, use_fast_accum=True)
        y.addmm_(x["d"], x["lb"].t(), alpha=0.5 / math.sqrt(r))

    # Check: cake against the unfused result in fp64 on set 0.
    x = sets[0]
    base = (sa * sb).double() * (x["a"].double() @ x["b"].double().T)
    ref = base + s.double() * (x["d"].double() @ x["lb"].double().T)
    got = cake.mm_fp8_lora(x["a"], x["b"], sa, sb, x["d"], x["lb"], s)
    err = ((got.double() - ref).norm() / ref.norm()).item()
    floor = ((ref.to(torch.bfloat16).double() - ref).norm() / ref.norm()).item()

    variants = dict(cake=cake_fn(s), cake0=cake_fn(zero), scaled_mm=lambda i: scaled(i, True), unfused=unfused)
    checks = dict(cake=err / floor)
    if deep_gemm is not None:
        sfa, sfb = deepgemm_scales(deep_gemm, M, N, K, sa, sb)

        def deepgemm(i):
            x = sets[i % nsets]
            deep_gemm.fp8_gemm_nt((x["a"], sfa), (x["b"], sfb), x["out"])

        base_floor = ((base.to(torch.bfloat16).double() - base).norm() / base.norm()).item()
        y = torch.full((M, N), float("nan"), device="cuda", dtype=torch.bfloat16)
        deep_gemm.fp8_gemm_nt((x["a"], sfa), (x["b"], sfb), y)
        checks["deepgemm"] = ((y.double() - base).norm() / base.norm()).item() / base_floor
        variants.update(deepgemm=deepgemm, scaled_mm_acc=lambda i: scaled(i, False))
    t = dict(zip(variants, time_graphs(list(variants.values()), calls, warmup_ms=warmup_ms)))
    return t, checks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--shape", type=str)
    ap.add_argument("--m", type=str, help="comma-separated M values in place of the grid's")
    ap.add_argument("--nk", type=str, help="N,K,N,K... pairs in place of the grid's")
    ap.add_argument("--r", type=int, default=128)
    ap.add_argument("--warmup", type=float, default=100.0, help="ms of untimed interleaved rounds per shape")
    ap.add_argument("--deepgemm", action="store_true",
                    help="also time DeepGEMM's FP8 GEMM and cuBLASLt without fast accumulation")
    args = ap.parse_args()
    deep_gemm = None
    if args.deepgemm:
        try:
            import deep_gemm
        except ImportError as e:
            raise SystemExit(f"bench_torch.py --deepgemm: DeepGEMM is not importable here ({e}); "
                             "install it (it builds from source: github.com/deepseek-ai/DeepGEMM) or drop --deepgemm")
    Ms = [1, 16, 64, 128, 512, 2048, 8192]
    NKs = [(4096, 4096), (6144, 4096), (28672, 4096), (4096, 14336), (8192, 8192)]
    if args.quick:
        Ms, NKs = [1, 64, 512, 4096], [(4096, 4096), (28672, 4096), (4096, 14336)]
    if args.m:
        Ms = [int(m) for m in args.m.split(",")]
    if args.nk:
        v = [int(x) for x in args.nk.split(",")]
        NKs = list(zip(v[0::2], v[1::2]))
    if args.shape:
        M, N, K = map(int, args.shape.split(","))
        Ms, NKs = [M], [(N, K)]
    head = (f"{'M':>6} {'N':>6} {'K':>6} {'r':>4} | {'cake':>8} {'cake s=0':>8} {'scaled_mm':>9} {'unfused':>8} |"
            f" {'cake/smm':>8} {'cake/unf':>8} {'s0/smm':>7} |")
    if deep_gemm is not None:
        head += (f" {'deepgemm':>8} {'smm acc':>8} | {'cake/dg':>7} {'s0/dg':>6} {'dg/smm':>6} {'acc/smm':>7} |")
    print(head + " check (error / bf16 rounding's)")
    for N, K in NKs:
        for M in Ms:
            t, checks = measure(M, N, K, args.r, args.warmup, deep_gemm)
            line = (f"{M:6d} {N:6d} {K:6d} {args.r:4d} | {t['cake']:8.2f} {t['cake0']:8.2f} {t['scaled_mm']:9.2f}"
                    f" {t['unfused']:8.2f} | {t['cake'] / t['scaled_mm']:8.3f} {t['cake'] / t['unfused']:8.3f}"
                    f" {t['cake0'] / t['scaled_mm']:7.3f} |")
            if deep_gemm is not None:
                dg, acc, smm = t["deepgemm"], t["scaled_mm_acc"], t["scaled_mm"]
                line += (f" {dg:8.2f} {acc:8.2f} | {t['cake'] / dg:7.3f} {t['cake0'] / dg:6.3f}"
                         f" {dg / smm:6.3f} {acc / smm:7.3f} |")
            print(line + " " + " ".join(f"{k} {v:.4f}" for k, v in checks.items()), flush=True)


if __name__ == "__main__":
    main()
