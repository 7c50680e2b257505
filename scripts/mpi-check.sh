#!/usr/bin/env bash
# Build ns-3.37 with its MPI module from Debian's source package, with mcast4ai in contrib/, and
# check that one scenario run on several processes gives the answers of one process.
#
#   bash scripts/mpi-check.sh [JOBS]          # install, build, run the equality checks
#   bash scripts/mpi-check.sh --build [JOBS]  # install and build only
#
# Debian's libns3-dev has no MPI module, so a distributed run needs ns-3 built from source: the
# script installs Open MPI (libopenmpi-dev, openmpi-bin) if missing, downloads Debian's ns3
# source package through a private deb-src list (nothing under /etc changes), unpacks its
# upstream tarball into build-mpi/ns-allinone-3.37 (upstream, not Debian's patched tree: Debian renames
# the libraries to the installed libns3 names, and the two would mix), copies the module to
# contrib/mcast4ai and builds a release profile with --enable-mpi. From nothing (download,
# build, checks) it took 9 min 19 s on 2 cores; later runs rebuild only what changed.
#
# The checks (test/mpi/equality.sh, listed in docs/testing.md) run the scenarios of test/mpi/
# in one process and with mpirun -np 2 and 4 (4 is oversubscribed on a 2-core machine) and
# compare ops.csv and summary.json with the single-process run. Not part of the test command
# (scripts/setup.sh test): it needs a network for the source package and minutes to build.
set -euo pipefail

build_only=0
if [[ ${1:-} == --build ]]; then
    build_only=1
    shift
fi
jobs=${1:-$(nproc 2>/dev/null || echo 2)}
root=$(cd "$(dirname "$0")/.." && pwd)
work=${MCAST4AI_MPI_DIR:-$root/build-mpi}
mkdir -p "$work"

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    sudo_cmd=(sudo)
fi
missing=()
for p in libopenmpi-dev openmpi-bin dpkg-dev bzip2 libprotobuf-dev protobuf-compiler; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
fi

ns3=$work/ns-allinone-3.37/ns-3.37
if [[ ! -x $ns3/ns3 ]]; then
    # Debian's ns3 source package, fetched with a list of our own so that /etc stays as it is.
    src=$work/source
    mkdir -p "$src/lists/partial" "$src/cache/archives/partial"
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
    echo "deb-src http://deb.debian.org/debian $codename main" > "$src/sources.list"
    apt_opts=(-o "Dir::Etc::SourceList=$src/sources.list" -o Dir::Etc::SourceParts=/nonexistent
        -o "Dir::State::Lists=$src/lists" -o "Dir::Cache=$src/cache" -o Debug::NoLocking=1)
    apt-get "${apt_opts[@]}" update -qq
    (cd "$src" && apt-get "${apt_opts[@]}" source --download-only -qq ns3=3.37-2)
    tar -C "$work" -xjf "$src"/ns3_3.37.orig.tar.bz2
    [[ -x $ns3/ns3 ]] || { echo "error: no ns-3.37 tree after unpacking the source package" >&2; exit 1; }
fi

# The module as committed plus local changes, without build directories. Only files whose
# bytes changed are written (and get the time of the copy), so a rebuild compiles only those.
dest=$ns3/contrib/mcast4ai
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
tar -C "$root" --exclude=./.git --exclude='./build*' --exclude=./results -cf - . | tar -C "$stage" -xf -
git -C "$root" describe --always --dirty > "$stage/.mcast4ai-revision" 2>/dev/null || true
mkdir -p "$dest"
(cd "$stage" && find . -type f) | while read -r f; do
    if ! cmp -s "$stage/$f" "$dest/$f"; then
        mkdir -p "$(dirname "$dest/$f")"
        cp "$stage/$f" "$dest/$f"
    fi
done
(cd "$dest" && find . -type f) | while read -r f; do
    [[ -e $stage/$f ]] || rm -f "$dest/$f"
done

cd "$ns3"
if [[ ! -f cmake-cache/build.ninja && ! -f cmake-cache/Makefile ]] || ! grep -q 'NS3_MPI:BOOL=ON' cmake-cache/CMakeCache.txt; then
    ./ns3 configure -d release --enable-mpi --enable-examples --enable-modules=mcast4ai,mpi \
        --filter-module-examples-and-tests=mcast4ai
fi
# ./ns3 build caps its jobs at one less than the cores; cmake uses all it is given.
cmake --build cmake-cache -j "$jobs" --target mcast4ai-run
runner=$(find "$ns3/build" -type f -perm -u+x -name 'ns*-mcast4ai-run' | head -n 1)
[[ -n $runner ]] || { echo "error: no mcast4ai-run built under $ns3/build" >&2; exit 1; }
echo "runner: $runner"
((build_only)) && exit 0

exec bash "$root/test/mpi/equality.sh" "$runner"
