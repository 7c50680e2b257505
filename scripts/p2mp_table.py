#!/usr/bin/python3
"""Run a P2MP evaluation scenario over mechanisms and ACK aggregation modes; print a table.

    /usr/bin/python3 scripts/p2mp_table.py [SCENARIO] [--runner build/mcast4ai-run]
                                           [--set KEY=VALUE]... [--json FILE]

Default scenario: scenarios/evaluation/broadcast-64.json. One run per row of the matrix below
(each with --quiet into a temporary directory); the table is Markdown, one row per run, with
the metrics summary.json reports for P2MP: completion at the root and at the receivers,
bytes on links and at the sender's NIC, ACKs per data packet, header bytes, copies leaving
the source, switch state, group installs and retransmissions.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

MATRIX = [
    ("unicast", "none", "per-packet"),
    ("bier", "none", "per-packet"),
    ("bier", "sender-nic", "per-packet"),
    ("bier", "source-tor", "per-packet"),
    ("bier", "hop-by-hop", "per-packet"),
    ("bier-xpu-list", "none", "per-packet"),
    ("bier-xpu-list", "hop-by-hop", "per-packet"),
    ("new-protocol", "source-tor", "per-packet"),
    ("new-protocol", "hop-by-hop", "per-packet"),
    ("new-protocol", "source-tor", "per-message"),
    ("bier", "none", "ack-free"),
]


def run(runner, scenario, mechanism, aggregation, ack_mode, extra):
    with tempfile.TemporaryDirectory() as out:
        cmd = [runner, scenario, "--quiet", "--out", out,
               "--set", f"p2mp.mechanism={mechanism}",
               "--set", f"p2mp.ack_aggregation={aggregation}",
               "--set", f"p2mp.ack_mode={ack_mode}"]
        for s in extra:
            cmd += ["--set", s]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        path = os.path.join(out, "summary.json")
        if proc.returncode not in (0, 3) or not os.path.exists(path):
            sys.exit(f"error: {' '.join(cmd)}: exit {proc.returncode}\n{proc.stderr}")
        with open(path) as f:
            return json.load(f)


def row(mechanism, aggregation, ack_mode, s):
    w = s["workloads"][0]
    n = s["network"]
    rx = w.get("receiver_completion_us", {})
    st = n["switch_state"]
    return {
        "mechanism": mechanism,
        "ack_aggregation": aggregation,
        "ack_mode": ack_mode,
        "complete": s["complete"],
        "root_p50_us": w["duration_us"]["p50"],
        "root_p99_us": w["duration_us"]["p99"],
        "root_max_us": w["duration_us"]["max"],
        "rx_p50_us": rx.get("p50"),
        "rx_p99_us": rx.get("p99"),
        "rx_max_us": rx.get("max"),
        "link_MB": n["link_bytes"] / 1e6,
        "sender_nic_MB": n["sender_nic_bytes"] / 1e6,
        "acks_per_pkt": n["acks_per_data_packet"],
        "header_MB": n["header_bytes"] / 1e6,
        "copies": n["copies_from_source"],
        "bift": st["bift_entries"],
        "groups_peak": st["group_table_live_peak_max"],
        "agg_peak": st["aggregation_live_peak_max"],
        "installs": n["group_installs"],
        "install_us": n["group_install_us_mean"],
        "retx": n["retransmissions"],
        "wall_s": s["wall_s"],
    }


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "NO"
    if isinstance(v, float):
        return f"{v:.1f}" if abs(v) >= 10 else f"{v:.2f}"
    return str(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario", nargs="?", default="scenarios/evaluation/broadcast-64.json")
    ap.add_argument("--runner", default="build/mcast4ai-run")
    ap.add_argument("--set", action="append", default=[], help="extra override for every run")
    ap.add_argument("--json", help="also write the rows to this file")
    args = ap.parse_args()
    if not os.access(args.runner, os.X_OK):
        sys.exit(f"error: {args.runner}: not an executable (build it: bash scripts/setup.sh run)")
    rows = [row(m, a, k, run(args.runner, args.scenario, m, a, k, args.set)) for m, a, k in MATRIX]
    keys = list(rows[0].keys())
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for r in rows:
        print("| " + " | ".join(fmt(r[k]) for k in keys) + " |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
