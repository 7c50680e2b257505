#!/usr/bin/env bash
# Golden-output guard: every case of test/golden/cases.tsv must give the ops.csv, event count,
# packet-hop count, end time and counters recorded in test/golden/expected.tsv. Optimisations
# must leave all of them byte-identical (see test/golden/check.py).
#
# Usage: bash golden.sh RUNNER_BINARY SOURCE_DIR
set -u
if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
    exit 2
fi
exec /usr/bin/python3 "$2/test/golden/check.py" "$1" "$2"
