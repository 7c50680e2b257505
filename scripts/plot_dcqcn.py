#!/usr/bin/python3
"""Plot DCQCN rate traces (dcqcn-rates.csv written with nic.dcqcn.rate_trace = true).

    /usr/bin/python3 scripts/plot_dcqcn.py RESULT_DIR [-o PNG] [--all]

One line per sending queue pair: the current (paced) rate solid, the target rate dashed, and
alpha below. Queue pairs whose rate never changed are left out unless --all is given.
"""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("result_dir", help="result directory holding dcqcn-rates.csv")
    ap.add_argument("-o", "--output", help="PNG to write (default RESULT_DIR/dcqcn-rates.png)")
    ap.add_argument("--all", action="store_true", help="also plot QPs that were never throttled")
    args = ap.parse_args()

    path = os.path.join(args.result_dir, "dcqcn-rates.csv")
    if not os.path.exists(path):
        sys.exit(f"error: {path}: not found (run the scenario with nic.dcqcn.rate_trace = true)")
    df = pd.read_csv(path)
    if df.empty:
        sys.exit(f"error: {path}: no rows")
    end_us = df["time_us"].max()

    fig, (ax_rate, ax_alpha) = plt.subplots(
        2, 1, figsize=(8, 5.5), sharex=True, gridspec_kw={"height_ratios": [3, 1]}
    )
    plotted = 0
    for (host, qpn), g in df.groupby(["host", "qpn"], sort=True):
        if len(g) < 2 and not args.all:
            continue  # only the initial row: never throttled
        g = g.sort_values("time_us", kind="stable")
        # Rates are piecewise constant: extend each QP's last value to the end of the trace.
        t = list(g["time_us"] / 1000.0) + [end_us / 1000.0]
        rate = list(g["rate_gbps"]) + [g["rate_gbps"].iloc[-1]]
        target = list(g["target_gbps"]) + [g["target_gbps"].iloc[-1]]
        alpha = list(g["alpha"]) + [g["alpha"].iloc[-1]]
        label = f"host {host} QP {qpn:#x}"
        line = ax_rate.step(t, rate, where="post", label=label, linewidth=1.0)[0]
        ax_rate.step(t, target, where="post", linestyle="--", linewidth=0.8,
                     color=line.get_color(), alpha=0.7)
        ax_alpha.step(t, alpha, where="post", color=line.get_color(), linewidth=1.0)
        plotted += 1
    if plotted == 0:
        sys.exit(f"error: {path}: no queue pair was ever throttled (use --all to plot anyway)")

    ax_rate.set_ylabel("rate (Gb/s)\nsolid current, dashed target")
    ax_rate.set_ylim(bottom=0)
    ax_rate.grid(True, alpha=0.3)
    ax_rate.legend(loc="lower right", fontsize=8)
    ax_alpha.set_ylabel("alpha")
    ax_alpha.set_xlabel("time (ms)")
    ax_alpha.set_ylim(0, 1.05)
    ax_alpha.grid(True, alpha=0.3)
    name = os.path.basename(os.path.normpath(args.result_dir))
    summary = os.path.join(args.result_dir, "summary.json")
    if os.path.exists(summary):
        with open(summary) as f:
            name = json.load(f).get("scenario", name)
    fig.suptitle(f"DCQCN rates: {name}")
    fig.tight_layout()
    out = args.output or os.path.join(args.result_dir, "dcqcn-rates.png")
    fig.savefig(out, dpi=150)
    print(out)


if __name__ == "__main__":
    main()
