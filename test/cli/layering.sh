#!/usr/bin/env bash
# src/ folders depend only downward (core < wire < topology < fabric < rdma < p2mp < workload
# < scenario), and no two include each other. The guard first proves it catches each kind of
# violation on trees it makes, then checks the real one.
#   bash test/cli/layering.sh RUNNER SOURCE_DIR   (RUNNER is unused)
set -euo pipefail
src=${2:?usage: layering.sh RUNNER SOURCE_DIR}
/usr/bin/python3 "$src/test/layers/check_layers.py" --self-test
/usr/bin/python3 "$src/test/layers/check_layers.py" "$src"
