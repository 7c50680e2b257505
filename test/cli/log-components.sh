#!/usr/bin/env bash
# Every log component of src/ logs (a name NS_LOG can enable and get something from), and no
# two files define the same one. The guard first proves it catches both on a tree it makes.
#   bash test/cli/log-components.sh RUNNER SOURCE_DIR   (RUNNER is unused)
set -euo pipefail
src=${2:?usage: log-components.sh RUNNER SOURCE_DIR}
/usr/bin/python3 "$src/test/logs/check_logs.py" --self-test
/usr/bin/python3 "$src/test/logs/check_logs.py" "$src"
