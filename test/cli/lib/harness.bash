# Counting and reporting for the cli tests (sourced; not a test itself, so not matched by
# test/CMakeLists.txt's cli/*.sh). `pass NAME`, `fail NAME [DETAIL...]`, and `finish`, which
# runs `finish_hook` if the test defines one, prints the totals and exits 0 only if something
# passed and nothing failed.
passed=0
failed=0

pass() {
    passed=$((passed + 1))
    echo "ok   $1"
}

fail() {
    failed=$((failed + 1))
    echo "FAIL $1"
    shift
    for detail in "$@"; do
        echo "     $detail"
    done
}

finish() {
    if declare -F finish_hook >/dev/null; then
        finish_hook
    fi
    echo "$passed passed, $failed failed"
    [[ $failed -eq 0 && $passed -gt 0 ]]
    exit
}

# Preconditions shared by the cli tests: each stops the test as a failure when it does not hold.
require_runner() {  # RUNNER
    if [[ ! -x $1 ]]; then
        fail "runner '$1' is not an executable file"
        finish
    fi
}

require_python_script() {  # SCRIPT: executable, run by /usr/bin/python3 (not the PATH one)
    if [[ ! -x $1 ]] || [[ $(head -n 1 "$1") != '#!/usr/bin/python3' ]]; then
        fail "$1 is not an executable starting with #!/usr/bin/python3"
        finish
    fi
}

require_plotting_python() {  # the scripts' numpy, pandas and matplotlib
    if ! /usr/bin/python3 -c 'import numpy, pandas, matplotlib' 2>/dev/null; then
        fail "/usr/bin/python3 cannot import numpy, pandas and matplotlib" \
            "(Debian: python3-pandas python3-matplotlib)"
        finish
    fi
}

# start_test "$@" (RUNNER SOURCE_DIR): the usage check, `runner` and `source_dir` as absolute
# paths, the runner's precondition, and a scratch directory `tmp` that finish removes.
start_test() {
    if [[ $# -ne 2 ]]; then
        echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
        exit 2
    fi
    runner=$(realpath "$1")
    source_dir=$(realpath "$2")
    require_runner "$runner"
    tmp=$(mktemp -d)
    finish_hook() { rm -rf "$tmp"; }
}

# expect_exit2 WANT ARG...: the runner, given ARG... and --quiet, exits 2 and the first line
# of its standard error contains WANT.
expect_exit2() {
    local want=$1
    shift
    "$runner" "$@" --quiet 2>exit2.err >/dev/null
    local code=$?
    local first
    first=$(head -1 exit2.err)
    if [[ $code -eq 2 && $first == *"$want"* ]]; then
        pass "exit 2: $want"
    else
        fail "exit 2 naming '$want'" "exit $code: $first"
    fi
}
