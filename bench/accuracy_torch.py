"""The accuracy bar applied to cuBLASLt as well as to cake, on the same inputs.

The SM90 programs' bar: every element within one bf16 ulp of the exact value plus
1e-3 of the output's rms, and a relative Frobenius error at most 1.05x that of the
exact result rounded once to bf16. This prints both measures for cake.mm_fp8 and
for torch._scaled_mm (cuBLASLt) with and without fast accumulation, base product
only, on the GPU tests' inputs (tests/python/reference.py), several seeds each.

With --chain L,..., it also measures promotion schedules no program runs: the
tensor cores' partial sums added into fp32 every L of K, emulated by cuBLASLt
with fast accumulation (one chain of wgmma, no promotion) on each L-wide K slice,
the slices' fp32 results summed in K order and scaled once, as a program that
promoted every L would. L = 128 stands for cuBLASLt's own schedule without fast
accumulation and L = K for its fast mode, which checks the emulation.

    python bench/accuracy_torch.py [--seeds 3] [--shape M,N,K ...] [--chain 128,256,512]
"""

from __future__ import annotations

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "python"))
from reference import accuracy, bf16_ulp, make_problem, poisoned, reference  # noqa: E402

import cake  # noqa: E402

# torch._scaled_mm needs N to be a multiple of 16.
SHAPES = [(4096, 4096, 128), (4096, 4096, 1024), (4096, 4096, 4096), (1000, 4096, 16400), (256, 1024, 65536)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--shape", type=lambda t: tuple(int(x) for x in t.split(",")), action="append",
                        help="M,N,K (repeatable; default: a fixed list)")
    parser.add_argument("--chain", type=lambda t: [int(x) for x in t.split(",")], default=[],
                        help="K per promotion to emulate, multiples of 32 (e.g. 128,256)")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("accuracy_torch: needs a CUDA GPU", file=sys.stderr)
        return 1

    def cake_base(p):
        out = poisoned(*p.shape[:2])
        return cake.mm_fp8(p.a, p.b, p.a_scale, p.b_scale, out=out)

    def scaled_mm(fast):
        def run(p):
            return torch._scaled_mm(p.a, p.b.t(), scale_a=p.a_scale, scale_b=p.b_scale,
                                    out_dtype=torch.bfloat16, use_fast_accum=fast)
        return run

    def promoted_every(chain):
        def run(p):
            one = torch.ones(1, device=p.a.device)
            acc = torch.zeros(p.a.shape[0], p.b.shape[0], device=p.a.device)
            for k in range(0, p.a.shape[1], chain):
                a, b = p.a[:, k:k + chain].contiguous(), p.b[:, k:k + chain].contiguous()
                acc += torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.float32,
                                        use_fast_accum=True)
            return (acc * (p.a_scale * p.b_scale)).to(torch.bfloat16)
        return run

    variants = [("cake", cake_base), ("cuBLASLt", scaled_mm(False)), ("cuBLASLt fast acc.", scaled_mm(True))]
    variants += [(f"fast acc. every {chain} K", promoted_every(chain)) for chain in args.chain]
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}; worst over {args.seeds} seeds")
    print("worst element: max |out - exact| / (1 bf16 ulp + 1e-3 rms), bar <= 1; "
          "Frobenius: relative error / that of the exact result rounded once, bar <= 1.05")
    print("same as cuBLASLt: the share of cake's outputs bitwise equal to cuBLASLt's without fast accumulation")
    print(f"{'M':>5} {'N':>5} {'K':>6} | " + " | ".join(f"{name:>27}" for name, _ in variants) + " | same as")
    print(f"{'':>19} | " + " | ".join(f"{'worst element':>14} {'Frobenius':>12}" for _ in variants) +
          " | cuBLASLt")
    details = []
    for M, N, K in args.shape or SHAPES:
        worst = {name: [0.0, 0.0] for name, _ in variants}
        same, total = 0, 0
        for seed in range(args.seeds):
            p = make_problem(M, N, K, r=0, seed=97 * seed + K)
            ref = reference(p)
            rms = ref.pow(2).mean().sqrt().item()
            outs = {}
            for name, fn in variants:
                out = fn(p)
                outs[name] = out
                acc = accuracy(out, ref, f"{name} M={M} N={N} K={K}")
                worst[name][1] = max(worst[name][1], acc.ratio)
                if acc.worst_excess > worst[name][0]:
                    worst[name][0] = acc.worst_excess
                    err = (out.double() - ref).abs()
                    i = (err / (bf16_ulp(ref) + 1e-3 * rms)).argmax()
                    e, r_ = err.flatten()[i].item(), ref.flatten()[i].item()
                    details.append(f"{name}, M={M} N={N} K={K} seed {seed}: exact {r_ / rms:+.4f} rms, "
                                   f"error {e / rms:.2e} rms = {e / bf16_ulp(ref.flatten()[i]).item():.2f} ulp")
            same += (outs["cake"] == outs["cuBLASLt"]).sum().item()
            total += outs["cake"].numel()
            del ref, outs
        print(f"{M:>5} {N:>5} {K:>6} | " +
              " | ".join(f"{worst[name][0]:>14.3f} {worst[name][1]:>12.4f}" for name, _ in variants) +
              f" | {100.0 * same / total:>7.3f}%")
    print("\nthe worst elements (each time a variant's worst grew):")
    for line in details:
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
