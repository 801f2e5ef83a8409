"""Plots bench.json: time ratios against M, one panel per (N, K)."""

import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(src="results/bench.json", dst="results/bench.png"):
    data = json.load(open(src))
    rows = data["rows"]
    r = max(row["r"] for row in rows)
    rows = [row for row in rows if row["r"] == r]
    panels = sorted({(row["N"], row["K"]) for row in rows})
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.8), squeeze=False, sharey=True)
    for ax, (N, K) in zip(axes[0], panels):
        sel = sorted((row for row in rows if (row["N"], row["K"]) == (N, K)), key=lambda x: x["M"])
        Ms = [row["M"] for row in sel]
        ax.plot(Ms, [x["cake_us"] / x["cublaslt_us"] for x in sel], "o-", label=f"cake (r={r}) / cuBLASLt FP8")
        ax.plot(Ms, [x["cake_us"] / x["unfused_us"] for x in sel], "s-", label=f"cake (r={r}) / unfused")
        ax.plot(Ms, [x["cake_s0_us"] / x["cublaslt_us"] for x in sel], "^--", label="cake s=0 / cuBLASLt FP8")
        ax.plot(Ms, [x["unfused_us"] / x["cublaslt_us"] for x in sel], ":", color="gray", label="unfused / cuBLASLt FP8")
        if all("cutlass_us" in x and "cutlass_fast_us" in x for x in sel):  # cake_bench --cutlass
            ax.plot(Ms, [x["cutlass_us"] / x["cublaslt_us"] for x in sel], "x-.", color="tab:red",
                    label="CUTLASS promoted / cuBLASLt FP8")
            ax.plot(Ms, [x["cutlass_fast_us"] / x["cublaslt_us"] for x in sel], "+-.", color="tab:purple",
                    label="CUTLASS fast acc. / cuBLASLt FP8")
        ax.axhline(1.0, color="black", lw=0.8)
        ax.set_xscale("log", base=2)
        ax.set_title(f"N={N}, K={K}")
        ax.set_xlabel("M (tokens)")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("time ratio (lower is better)")
    axes[0][-1].legend(fontsize=7)
    others = "cuBLASLt and CUTLASS" if any("cutlass_us" in x for x in rows) else "cuBLASLt"
    fig.suptitle(f"cake vs {others} on {data['device']} (one run, same inputs)")
    fig.tight_layout()
    fig.savefig(dst, dpi=110)
    print(f"wrote {dst}")


if __name__ == "__main__":
    main(*sys.argv[1:])
