#!/usr/bin/env bash
# Contract check: every malformed scenario in malformed/ is rejected by the runner with exit
# code 2 and a first stderr line "error: FILE: JSON.PATH: reason" naming the expected path;
# every stderr line is such an error line (one per error of the file, at most 20, then one
# saying how many more).
#
# Usage: bash malformed-scenarios.sh RUNNER_BINARY SOURCE_DIR
# Cases come from malformed/expected.tsv, one per line:
#   FILE<TAB>EXPECTED_JSON_PATH<TAB>EXTRA_ARGS[<TAB>ERROR_FILE[<TAB>LINES[<TAB>CONTAINS]]]
# EXTRA_ARGS are split on spaces. ERROR_FILE replaces FILE in the expected prefix (a malformed
# --set is reported against "--set", not the scenario file). LINES, when given, is the number
# of stderr lines expected; CONTAINS, when given, a text the first line must contain. Blank
# lines and # comments are skipped.
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
    exit 2
fi
runner=$1
dir="$2/test/cli/malformed"
manifest="$dir/expected.tsv"

if [[ ! -x $runner ]]; then
    echo "runner '$runner' is not an executable file" >&2
    exit 1
fi
if [[ ! -f $manifest ]]; then
    echo "manifest '$manifest' not found" >&2
    exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0

fail() {
    failed=$((failed + 1))
    echo "FAIL $1"
    shift
    for detail in "$@"; do
        echo "     $detail"
    done
}

# Split a line on tabs, keeping empty fields (read -a with IFS=tab would merge them).
split_tabs() {
    local line=$1
    fields=()
    while [[ $line == *$'\t'* ]]; do
        fields+=("${line%%$'\t'*}")
        line=${line#*$'\t'}
    done
    fields+=("$line")
}

declare -A listed=()
case_no=0
while IFS= read -r line || [[ -n $line ]]; do
    line=${line%$'\r'}
    [[ -z ${line//[[:space:]]/} || $line == \#* ]] && continue
    split_tabs "$line"
    if [[ ${#fields[@]} -lt 2 || -z ${fields[0]} || -z ${fields[1]} ]]; then
        fail "expected.tsv: malformed line: $line"
        continue
    fi
    file=${fields[0]}
    path=${fields[1]}
    extra=${fields[2]:-}
    listed[$file]=1
    scenario="$dir/$file"
    error_file=${fields[3]:-$scenario}
    want_lines=${fields[4]:-}
    want_text=${fields[5]:-}
    read -r -a args <<<"$extra"

    case_no=$((case_no + 1))
    out="$tmp/out-$case_no"
    name="$file${extra:+ $extra}"
    timeout 60 "$runner" "$scenario" ${args[@]+"${args[@]}"} --quiet --out "$out" \
        >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    first=$(head -n 1 "$tmp/stderr")
    prefix="error: $error_file: $path: "
    lines=$(wc -l <"$tmp/stderr")
    stray=$(grep -v -c '^error: [^:]*: [^:]*: ' "$tmp/stderr")

    if [[ $rc -ne 2 ]]; then
        fail "$name" "exit code $rc, expected 2" "stderr: $first"
    elif [[ $first != "$prefix"* ]]; then
        fail "$name" "stderr: $first" "expected a line starting with: $prefix"
    elif [[ -n $want_lines && $lines -ne $want_lines ]]; then
        fail "$name" "$lines stderr line(s), expected $want_lines:" "$(cat "$tmp/stderr")"
    elif [[ -n $want_text && $first != *"$want_text"* ]]; then
        fail "$name" "stderr: $first" "expected it to contain: $want_text"
    elif [[ $stray -ne 0 ]]; then
        fail "$name" "stderr has lines that are not 'error: FILE: path: reason':" \
            "$(grep -v '^error: [^:]*: [^:]*: ' "$tmp/stderr")"
    else
        passed=$((passed + 1))
        echo "ok   $name"
    fi
done <"$manifest"

# A scenario added to malformed/ but not to the manifest would silently go untested.
for scenario in "$dir"/*.json; do
    [[ -e $scenario ]] || continue
    base=$(basename "$scenario")
    if [[ -z ${listed[$base]:-} ]]; then
        fail "$base" "not listed in expected.tsv"
    fi
done

echo "$passed passed, $failed failed"
[[ $failed -eq 0 && $passed -gt 0 ]]
