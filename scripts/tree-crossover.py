#!/usr/bin/python3
"""Tree against ring AllReduce over a range of sizes, simulated and by the closed forms.

    /usr/bin/python3 scripts/tree-crossover.py RUNNER [--scenario FILE] [--sizes 4096,...]
                                               [--tree-chunk BYTES] [--set KEY=VALUE ...]
                                               [--seeds N] [--jobs N]

Runs scenarios/collectives/allreduce-tree.json (64 ranks on a 4 x 16 leaf-spine, the fabric of
the ring AllReduce tests) once per size and algorithm, one iteration each: ring (one loop of
shards S/N), tree with chunks of S/N (the default), and tree with chunks of --tree-chunk
(64 KiB). Prints a Markdown table of the simulated times next to the closed forms of
docs/workloads.md, and which algorithm is faster. --set is passed to every run (for instance
--set nic.dcqcn.enabled=false). Use the Release runner: the 64 MiB runs take a minute each.

With --seeds N (N >= 2) every run is made with seeds 1..N: a cell is the mean with its 95%
confidence interval, and the last column compares ring and tree paired by seed, a tie when the
interval of their difference holds zero (mcast4ai.stats, the evaluation's rules).
"""

import argparse
import concurrent.futures
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))),
                                "python"))
from mcast4ai import stats  # noqa: E402

# The fabric of the scenario, for the closed forms.
MTU = 1024
HOSTS_PER_LEAF = 16
RATE = 100e9
FABRIC_RATE = 400e9
CABLE = 1e-6
SWITCH = 500e-9
HEADERS = 58 + 24  # RoCEv2 headers + framing per data frame
RETH = 16
ACK = 62 + 24  # an ACK frame + framing


def packets(b):
    return (b + MTU - 1) // MTU


def data_s(b):
    return (b + packets(b) * HEADERS + RETH) * 8 / RATE


def ack_s(b):
    return packets(b) * ACK * 8 / RATE


def hop_s():
    return 2 * CABLE + SWITCH + (MTU + HEADERS) * 8 / RATE


def spine_s():
    return 2 * CABLE + 2 * SWITCH + 2 * (MTU + HEADERS) * 8 / FABRIC_RATE


def binary_tree_parents(n):
    """NCCL's binary tree over positions 0..n-1 (see CollectiveAlgorithms::BinaryTree)."""
    parent = [None] * n
    for p in range(1, n):
        b = p & -p
        parent[p] = p + b if (p & (b << 1)) == 0 and p + b < n else p - b
    return parent


def path_s(parent):
    """Longest root-to-leaf latency when position p is host p."""
    memo = {}

    def at(p):
        if parent[p] is None:
            return 0.0
        if p not in memo:
            up = parent[p]
            same = up // HOSTS_PER_LEAF == p // HOSTS_PER_LEAF
            memo[p] = at(up) + hop_s() + (0 if same else spine_s())
        return memo[p]

    return max(at(p) for p in range(len(parent)))


def depth(parent):
    def d(p):
        return 0 if parent[p] is None else 1 + d(parent[p])

    return max(d(p) for p in range(len(parent)))


def ring_closed_form(n, s):
    shard = s // n
    return 2 * (n - 1) * (data_s(shard) + ack_s(shard) + hop_s())


def tree_closed_form(n, s, chunk):
    parent = binary_tree_parents(n)
    d = depth(parent)
    chunk = min(chunk, s - s // 2)  # a chunk is at most a tree's half
    chunks = math.ceil(s / 2 / chunk)
    t = data_s(chunk) + ack_s(chunk)
    return (3 * d - 1) * t + 2 * path_s(parent) + (chunks - 1) * 4 * t


def run(runner, scenario, extra, algorithm, size, chunk, seed):
    with tempfile.TemporaryDirectory() as out:
        cmd = [runner, scenario, "--quiet", "--out", out,
               "--set", "workloads.0.algorithm=" + algorithm,
               "--set", "workloads.0.bytes=%d" % size,
               "--set", "workloads.0.chunk_bytes=%d" % chunk,
               "--set", "workloads.0.iterations=1",
               "--set", "stop_time_ms=2000"]
        if seed is not None:
            cmd += ["--seed", str(seed)]
        for kv in extra:
            cmd += ["--set", kv]
        subprocess.run(cmd, check=True)
        summary = json.load(open(os.path.join(out, "summary.json")))
        if not summary["complete"]:
            raise SystemExit("%s %d did not complete" % (algorithm, size))
        return (summary["workloads"][0]["duration_us"]["max"], summary["network"]["cnps"])


def size_text(b):
    return "%d MiB" % (b >> 20) if b >= 1 << 20 else "%d KiB" % (b >> 10)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runner")
    ap.add_argument("--scenario",
                    default=os.path.join(here, "..", "scenarios", "collectives",
                                         "allreduce-tree.json"))
    ap.add_argument("--sizes", default=",".join(str(4096 << (2 * k)) for k in range(8)))
    ap.add_argument("--tree-chunk", type=int, default=65536)
    ap.add_argument("--set", action="append", default=[], dest="extra")
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    if a.seeds < 1:
        ap.error("--seeds must be at least 1")
    # One seed: the scenario's own, as a single run; several: seeds 1..N.
    seeds = [None] if a.seeds == 1 else list(range(1, a.seeds + 1))
    sizes = [int(x) for x in a.sizes.split(",")]
    n = 64
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for s in sizes:
            for key, algorithm, chunk in (("ring", "ring", 0), ("tree", "tree", 0),
                                          ("tree-fixed", "tree", a.tree_chunk)):
                for seed in seeds:
                    jobs[(s, key, seed)] = pool.submit(run, a.runner, a.scenario, a.extra,
                                                       algorithm, s, chunk, seed)
        print("| S | ring: sim (closed form) | tree, chunks of S/N: sim (closed form) "
              "| tree, chunks of %s: sim (closed form) | faster (S/N chunks) |"
              % size_text(a.tree_chunk))
        print("|---|---|---|---|---|")
        for s in sizes:
            def results(key):
                return {seed: jobs[(s, key, seed)].result() for seed in seeds}

            ring_runs, tree_runs, fixed_runs = results("ring"), results("tree"), \
                results("tree-fixed")
            ring_cf = ring_closed_form(n, s) * 1e6
            tree_cf = tree_closed_form(n, s, max(1, -(-s // n))) * 1e6
            fixed_cf = tree_closed_form(n, s, a.tree_chunk) * 1e6

            def cell(runs, cf, with_cnps=False):
                sim = stats.mean_ci(t for t, _ in runs.values())
                cnps = sum(c for _, c in runs.values()) / len(runs)
                text = "%.1f" % sim.mean
                if sim.half_width is not None:
                    text += " ± %.1f" % sim.half_width
                text += " µs (%.1f, %+.0f%%)" % (cf, 100 * (sim.mean / cf - 1))
                return text + (", %.0f CNPs" % cnps if with_cnps and cnps else "")

            ring_us = {seed: t for seed, (t, _) in ring_runs.items()}
            tree_us = {seed: t for seed, (t, _) in tree_runs.items()}
            versus = stats.paired(ring_us, tree_us)
            ring, tree = versus.a_mean, versus.b_mean
            if len(seeds) > 1 and versus.outcome == "tie":
                faster = "tie (%+.0f ± %.0f µs)" % (versus.diff.mean, versus.diff.half_width)
            else:
                faster = "tree ×%.2f" % (ring / tree) if tree < ring else \
                    "ring ×%.2f" % (tree / ring)
            print("| %s | %s | %s | %s | %s |" % (size_text(s), cell(ring_runs, ring_cf),
                                                 cell(tree_runs, tree_cf, True),
                                                 cell(fixed_runs, fixed_cf, True), faster))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
