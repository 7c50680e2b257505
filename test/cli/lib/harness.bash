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
