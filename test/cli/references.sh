#!/usr/bin/env bash
# Staleness guard: docs/scenario-reference.md must be exactly what the schema generates
# (mcast4ai-run --schema-markdown), so the reference never drifts from the validator.
#
# Usage: bash scenario-reference.sh RUNNER_BINARY SOURCE_DIR
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
    exit 2
fi
runner=$1
doc="$2/docs/scenario-reference.md"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! "$runner" --schema-markdown >"$tmp/generated.md" 2>"$tmp/stderr"; then
    echo "FAIL '$runner --schema-markdown' failed:"
    cat "$tmp/stderr"
    exit 1
fi
if [[ ! -f $doc ]]; then
    echo "FAIL $doc does not exist; generate it with:"
    echo "     $runner --schema-markdown > $doc"
    exit 1
fi
if ! diff -u "$doc" "$tmp/generated.md" >"$tmp/diff"; then
    echo "FAIL docs/scenario-reference.md differs from the schema (- file, + generated):"
    head -n 60 "$tmp/diff"
    echo "Regenerate it from a build of this tree and commit it with the schema change:"
    echo "     $runner --schema-markdown > $doc"
    exit 1
fi
echo "ok   docs/scenario-reference.md matches the schema ($(wc -l <"$doc") lines)"
