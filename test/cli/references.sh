#!/usr/bin/env bash
# Staleness guard: the generated references must be exactly what the runner generates, so they
# never drift from the code: docs/scenario-reference.md from the schema (--schema-markdown),
# docs/attribute-reference.md from the classes' TypeIds (--attributes-markdown).
#
# Usage: bash references.sh RUNNER_BINARY SOURCE_DIR
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
    exit 2
fi
runner=$1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

status=0
for pair in "--schema-markdown scenario-reference.md" "--attributes-markdown attribute-reference.md"; do
    read -r flag name <<<"$pair"
    doc="$2/docs/$name"
    if ! "$runner" "$flag" >"$tmp/$name" 2>"$tmp/stderr"; then
        echo "FAIL '$runner $flag' failed:"
        cat "$tmp/stderr"
        status=1
        continue
    fi
    if [[ ! -f $doc ]]; then
        echo "FAIL $doc does not exist; generate it with:"
        echo "     $runner $flag > $doc"
        status=1
        continue
    fi
    if ! diff -u "$doc" "$tmp/$name" >"$tmp/diff"; then
        echo "FAIL docs/$name differs from what the code generates (- file, + generated):"
        head -n 60 "$tmp/diff"
        echo "Regenerate it from a build of this tree and commit it with the change:"
        echo "     $runner $flag > $doc"
        status=1
        continue
    fi
    echo "ok   docs/$name matches the code ($(wc -l <"$doc") lines)"
done
exit $status
