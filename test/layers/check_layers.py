#!/usr/bin/python3
"""Layering guard: every folder of src/ may include only its own layer and the layers below.

    /usr/bin/python3 test/layers/check_layers.py SOURCE_DIR
    /usr/bin/python3 test/layers/check_layers.py --self-test

Layers, bottom to top (docs/extending.md says what belongs where):

    core < wire < topology < fabric < rdma < p2mp < workload < scenario

A project include is `#include "LAYER/..."` (model/ or helper/ below it). The check fails, naming
file, line and both layers, when a file includes a layer above its own, when a folder of src/
is not a known layer, and when two folders include each other (a cycle, reported on its own
so that a cycle is visible even if the order above were changed). --self-test builds small
trees with each kind of violation and checks that each one is caught.
"""

import os
import re
import sys
import tempfile

LAYERS = ["core", "wire", "topology", "fabric", "rdma", "p2mp", "workload", "scenario"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z0-9_-]+)/[^"]+"')


def scan(src):
    """Return (errors, edges) for the tree under src/."""
    errors = []
    edges = {}
    rank = {name: i for i, name in enumerate(LAYERS)}
    for folder in sorted(os.listdir(src)):
        if not os.path.isdir(os.path.join(src, folder)):
            continue
        if folder not in rank:
            errors.append("src/%s: not a layer (known layers: %s)" % (folder, ", ".join(LAYERS)))
            continue
        for dirpath, _, files in os.walk(os.path.join(src, folder)):
            for name in sorted(files):
                if not name.endswith((".h", ".cc")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, os.path.dirname(src))
                with open(path, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m or m.group(1) not in rank:
                            continue
                        target = m.group(1)
                        if target != folder:
                            edges.setdefault((folder, target), "%s:%d" % (rel, number))
                        if rank[target] > rank[folder]:
                            errors.append("%s:%d: layer '%s' includes '%s', a layer above it"
                                          % (rel, number, folder, target))
    for (a, b), where in sorted(edges.items()):
        if a < b and (b, a) in edges:
            errors.append("src/%s and src/%s include each other (%s, %s)"
                          % (a, b, where, edges[(b, a)]))
    return errors, edges


def write(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def self_test():
    cases = {
        "clean": ({"src/fabric/model/a.h": '#include "wire/model/b.h"\n#include "ns3/x.h"\n',
                   "src/wire/model/b.h": '#include "core/model/c.h"\n'}, []),
        "upward": ({"src/wire/model/b.h": '#include "fabric/model/a.h"\n'},
                   ["layer 'wire' includes 'fabric'"]),
        "cycle": ({"src/rdma/model/a.h": '#include "p2mp/model/b.h"\n',
                   "src/p2mp/model/b.cc": '#include "rdma/model/a.h"\n'},
                  ["include each other", "layer 'rdma' includes 'p2mp'"]),
        "unknown folder": ({"src/misc/model/a.h": "\n"}, ["not a layer"]),
    }
    failures = 0
    for name, (files, expected) in cases.items():
        with tempfile.TemporaryDirectory() as tmp:
            write(tmp, files)
            errors, _ = scan(os.path.join(tmp, "src"))
        text = "\n".join(errors)
        ok = all(e in text for e in expected) and (bool(expected) == bool(errors))
        print("self-test %-15s %s" % (name, "ok" if ok else "FAILED: got " + repr(errors)))
        failures += not ok
    return failures


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        return 1 if self_test() else 0
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    errors, edges = scan(os.path.join(sys.argv[1], "src"))
    for e in errors:
        print("error: " + e)
    if errors:
        print("%d layering error(s)" % len(errors))
        return 1
    print("layers ok: %d include edges between folders, all downward (%s)"
          % (len(edges), " < ".join(LAYERS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
