#!/usr/bin/env bash
# Build the project with clang, AddressSanitizer and UndefinedBehaviorSanitizer, and run every
# ctest entry under them, the libFuzzer targets (test/fuzz/) included.
#
#   bash scripts/sanitize.sh [JOBS] [CTEST_ARGS...]
#
# The build goes to build-asan/ (RelWithDebInfo, -fsanitize=address,undefined, asserts on,
# MCAST4AI_FUZZ on) with glibc's malloc: jemalloc would replace the allocator ASan must see. It
# takes about 25 minutes on 2 cores, and the tests run two to three times slower than in
# build-test/, so this is not part of the default test command (scripts/setup.sh test); run it
# before a release and after any change to object lifetimes, the event loop or a parser.
# Needs clang and its libFuzzer runtime (Debian: clang, libclang-rt-14-dev). Any sanitizer report fails its test:
# UBSan does not recover, ASan stops at the first error. Leak checking is off: ns-3's own
# singletons (the type registry, the global value list) are never freed by design.
# Extra arguments go to ctest (e.g. -R ns3-dcqcn).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang++ >/dev/null || [[ -z $(find /usr/lib/llvm-*/lib/clang -name 'libclang_rt.fuzzer-x86_64.a' 2>/dev/null) ]]; then
    echo "error: needs clang and libFuzzer: sudo apt-get install clang libclang-rt-14-dev" >&2
    exit 2
fi
jobs=${1:-$(nproc 2>/dev/null || echo 2)}
shift || true

flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
CC=clang CXX=clang++ cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DMCAST4AI_ASSERTS=ON -DMCAST4AI_JEMALLOC=OFF -DMCAST4AI_FUZZ=ON \
    -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build build-asan -j"$jobs"

export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cd build-asan
ctest -j"$jobs" --output-on-failure --timeout 3600 "$@"
