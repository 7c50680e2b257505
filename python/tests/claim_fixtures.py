"""A valid claim document to start tests from, and a loader for edited copies."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from mcast4ai import claims

REPO = Path(__file__).resolve().parents[2]
DRAFTS = {"mcbride": {"title": "AI P2MP Mechanism Evaluation", "authors": "McBride et al.",
                      "date": "July 2026", "file": "p2mp-mechanism-evaluation.txt"}}

BASE: dict[str, Any] = {
    "id": "mcbride.ack-implosion",
    "title": "ACK implosion",
    "source": {"draft": "mcbride", "section": "2.5", "quote": "N receivers ... implosion"},
    "question": "ACKs at the root against group size?",
    "experiment": {
        "scenario": "scenarios/evaluation/broadcast-64.json",
        "set": {"workloads[0].bytes": 65536},
        "axis": {"key": "topology.hosts_per_leaf", "label": "hosts per leaf", "unit": "hosts",
                 "values": {"default": [2, 4], "full": [4, 16]}},
        "configurations": [
            {"id": "none", "label": "none", "set": {"p2mp.ack_aggregation": "none"}},
            {"id": "tor", "label": "source ToR", "set": {"p2mp.ack_aggregation": "source-tor"}}],
        "seeds": {"default": 3, "full": 5}},
    "metrics": [{"id": "acks", "label": "ACKs", "unit": "ACKs", "better": "lower",
                 "column": "network.acks_per_data_packet"}],
    "decision": {"rule": "compare", "metric": "acks", "baseline": "none", "candidate": "tor",
                 "expect": "lower"},
    "threats": ["none"],
}


def doc() -> dict[str, Any]:
    return copy.deepcopy(BASE)


def load(tmp: Path, d: dict[str, Any]) -> claims.Claim:
    path = tmp / f"{BASE['id']}.json"
    path.write_text(json.dumps(d))
    return claims.load_claim(path, REPO, DRAFTS)
