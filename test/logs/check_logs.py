#!/usr/bin/python3
"""Log guard: every source file of src/ that defines an ns-3 log component logs through it.

    /usr/bin/python3 test/logs/check_logs.py SOURCE_DIR
    /usr/bin/python3 test/logs/check_logs.py --self-test

A component that never logs is a name a user can enable (NS_LOG=Name) and get nothing from. The
check fails, naming the file and the component, when a .cc file has NS_LOG_COMPONENT_DEFINE and
no NS_LOG_FUNCTION, NS_LOG_FUNCTION_NOARGS, NS_LOG_LOGIC, NS_LOG_INFO, NS_LOG_DEBUG,
NS_LOG_WARN or NS_LOG_ERROR statement outside comments, and when two files define the same
component (ns-3 aborts on that at load). --self-test shows both on a tree of its own.
"""

import os
import re
import sys
import tempfile

DEFINE = re.compile(r'NS_LOG_COMPONENT_DEFINE\s*\(\s*"([A-Za-z0-9_]+)"\s*\)')
STATEMENT = re.compile(r"\bNS_LOG_(FUNCTION|FUNCTION_NOARGS|LOGIC|INFO|DEBUG|WARN|ERROR)\s*\(")
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def scan(src: str) -> list[str]:
    """The errors of the tree under src."""
    errors = []
    seen: dict[str, str] = {}
    for dirpath, dirnames, files in os.walk(src):
        dirnames.sort()  # a stable order: the first definition is the one named
        for name in sorted(files):
            if not name.endswith(".cc"):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, os.path.dirname(src.rstrip("/")))
            with open(path, encoding="utf-8") as f:
                code = COMMENT.sub("", f.read())
            for component in DEFINE.findall(code):
                if component in seen:
                    errors.append("%s: log component %s is defined in %s too"
                                  % (rel, component, seen[component]))
                seen[component] = rel
                if not STATEMENT.search(code):
                    errors.append("%s: log component %s never logs" % (rel, component))
    return sorted(errors)


def self_test() -> int:
    cases = {
        "a/logs.cc": 'NS_LOG_COMPONENT_DEFINE("Logs");\nvoid F() { NS_LOG_LOGIC("x"); }\n',
        "a/silent.cc": 'NS_LOG_COMPONENT_DEFINE("Silent");\n// NS_LOG_LOGIC("in a comment");\n',
        "b/twice.cc": 'NS_LOG_COMPONENT_DEFINE("Logs");\nvoid G() { NS_LOG_FUNCTION(1); }\n',
    }
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        for rel, text in cases.items():
            os.makedirs(os.path.join(src, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(src, rel), "w", encoding="utf-8") as f:
                f.write(text)
        errors = scan(src)
    expected = ["src/a/silent.cc: log component Silent never logs",
                "src/b/twice.cc: log component Logs is defined in src/a/logs.cc too"]
    if errors != expected:
        print("self-test failed: got %s, expected %s" % (errors, expected))
        return 1
    print("self-test: the silent component and the duplicate are caught, the logging one not")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2].strip())
        return 2
    errors = scan(os.path.join(sys.argv[1], "src"))
    for e in errors:
        print(e)
    if errors:
        return 1
    print("every log component logs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
