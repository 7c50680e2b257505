#!/usr/bin/python3
"""Fail on a use, outside src/core/model/ns3-compat.h, of an ns-3 API that differs between the
releases the module supports (Debian's 3.37 to current ns-3-dev).

    test/portability/check-ns3-api.py ROOT            # scan ROOT's src/, test/ and examples/
    test/portability/check-ns3-api.py --self-test     # prove the rules on a tree of its own

The rules are the last column of the table under "Other ns-3 versions" in docs/install.md, one
regular expression per API; that table is the only list. The Debian build compiles against
3.37, where every one of these spellings still compiles, so only this check (and ns-3's own
--enable-werror build) catches them before a user's ns-3-dev tree does.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TABLE_DOC = Path("docs") / "install.md"
TABLE_HEADING = "## Other ns-3 versions"
COMPAT_HEADER = Path("src") / "core" / "model" / "ns3-compat.h"
SCANNED = ("src", "test", "examples")
SUFFIXES = (".h", ".cc")


@dataclass(frozen=True)
class Rule:
    difference: str
    release: str
    remedy: str
    pattern: re.Pattern[str]


def read_rules(doc: Path) -> list[Rule]:
    """The rules of the table under TABLE_HEADING: rows whose last cell is a `regex`."""
    text = doc.read_text(encoding="utf-8")
    start = text.find(TABLE_HEADING)
    if start < 0:
        raise SystemExit(f"error: {doc} has no '{TABLE_HEADING}' section")
    rules: list[Rule] = []
    in_table = False
    for line in text[start:].splitlines()[1:]:
        if line.startswith("## "):
            break
        if not line.startswith("|"):
            if in_table:
                break
            continue
        in_table = True
        # Split on pipes that Markdown does not escape, then unescape the cells.
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) != 4 or set(cells[0]) <= set("-: ") or cells[0] == "difference":
            continue
        regex = cells[3]
        if not (regex.startswith("`") and regex.endswith("`")):
            continue  # "—": a difference that no spelling shows
        try:
            pattern = re.compile(regex[1:-1])
        except re.error as e:
            raise SystemExit(f"error: {doc}: bad regex {regex} for '{cells[0]}': {e}")
        rules.append(Rule(cells[0], cells[1], cells[2], pattern))
    if not rules:
        raise SystemExit(f"error: {doc}: no rules in the table under '{TABLE_HEADING}'")
    return rules


COMMENT_OR_STRING = re.compile(
    r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def code_only(source: str) -> str:
    """The source with comments and literals blanked, line breaks kept (so lines still count)."""
    def blank(m: re.Match[str]) -> str:
        t = m.group(0)
        if t.startswith('"'):
            return '""'
        return re.sub(r"[^\n]", " ", t)
    return COMMENT_OR_STRING.sub(blank, source)


# Two rules that a regular expression on one line cannot state, checked by structure: both
# break only ns-3's own builds (its headers are not system headers there, and its default
# profile keeps NS_ASSERT), so the Debian build cannot see them.
NEVER = re.compile(r"(?!)")
TEST_NAME_RULE = Rule("a TestCase name with one of the characters \" / \\ | ?",
                      "every release, asserted in the default and debug profiles",
                      "name the case without them", NEVER)
MACRO_RULE = Rule("a conditional (?:) at the top level of an NS_TEST_* macro argument",
                  "3.37 to 3.41 stream the arguments unparenthesised (-Werror=unused-value)",
                  "compute it into a variable first, or parenthesise it", NEVER)
TEST_NAME = re.compile(r'\bTestCase\s*\(\s*"((?:\\.|[^"\\])*)"')
BAD_NAME = re.compile(r'[/|?]|\\')
TEST_MACRO = re.compile(r"\bNS_TEST_(?:ASSERT|EXPECT)_MSG_[A-Z_]+\s*\(")


@dataclass(frozen=True)
class Finding:
    path: Path
    line: int
    rule: Rule
    text: str


def scan(root: Path, rules: list[Rule]) -> list[Finding]:
    findings: list[Finding] = []
    for top in SCANNED:
        base = root / top
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            rel = path.relative_to(root)
            if rel == COMPAT_HEADER:
                continue
            raw = path.read_text(encoding="utf-8", errors="replace")
            original = raw.splitlines()
            code = code_only("\n".join(original))
            for number, line in enumerate(code.splitlines(), 1):
                for rule in rules:
                    if rule.pattern.search(line):
                        findings.append(Finding(rel, number, rule, original[number - 1].strip()))
            findings += structural(rel, "\n".join(original), code)
    return findings


def structural(rel: Path, raw: str, code: str) -> list[Finding]:
    """The two structural rules on one file: raw is its text, code the same with comments and
    literals blanked (so a '?' inside a message is no conditional)."""
    lines = raw.splitlines()

    def at(text: str, offset: int, rule: Rule) -> Finding:
        number = text.count("\n", 0, offset) + 1  # both texts keep every line break
        return Finding(rel, number, rule, lines[number - 1].strip())

    found = [at(raw, m.start(), TEST_NAME_RULE) for m in TEST_NAME.finditer(raw)
             if BAD_NAME.search(m.group(1))]
    for m in TEST_MACRO.finditer(code):
        depth = 0
        for i in range(m.end(), len(code)):
            ch = code[i]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                if depth == 0:
                    break
                depth -= 1
            elif ch == "?" and depth == 0:
                found.append(at(code, i, MACRO_RULE))
                break
    return found


def report(findings: list[Finding]) -> None:
    for f in findings:
        print(f"{f.path}:{f.line}: {f.text}\n    differs between ns-3 releases: "
              f"{f.rule.difference} ({f.rule.release}); instead: {f.rule.remedy}",
              file=sys.stderr)


# One use of each API that breaks some supported release, as a user would write it, and the
# portable spellings that must pass. Every rule of the table needs at least one sample here.
BAD_SAMPLES = [
    "    .AddAttribute(\"Mode\", \"m\", EnumValue(A::X), MakeEnumAccessor(&A::m_mode),",
    "    if (!m_timer.IsRunning())",
    "    return m_event.IsRunning ();",
    "        : TestSuite(\"mcast4ai-x\", UNIT)",
    "        : TestSuite(\"mcast4ai-y\", SYSTEM)",
    "    AddTestCase(new XTestCase(), TestCase::QUICK);",
    "static_assert(TypeTraits<int>::IsPointer == false);",
    "    .SetSupportLevel(TypeId::DEPRECATED)",
    "    if (addr.IsInitialized())",
    "std::unordered_map<Ipv4Address, int, Ipv4AddressHash> m;",
    "    it.WriteHtolsbU32(crc);",
    "    uint16_t v = it.ReadLsbtohU16();",
    "    pcap.CreateFile(name, std::ios::out, PcapHelper::DLT_EN10MB);",
    "    ip.SetProtocol(UdpL4Protocol::PROT_NUMBER);",
    "    return static_cast<uint32_t>((static_cast<unsigned __int128>(h) * n) >> 64);",
    "        : TestCase(\"takes at least ACKs / rate\")",
    "    NS_TEST_ASSERT_MSG_EQ(failed, fails ? lossy : 0u, \"failed requests\");",
]
GOOD_SAMPLES = [
    "    MakeEnumAccessorFor<A::Mode>(&A::m_mode),",
    "    if (!IsPending(m_timer))",
    "        : TestSuite(\"mcast4ai-x\", TestSuite::Type::UNIT)",
    "    AddTestCase(new XTestCase());",
    "    __extension__ typedef unsigned __int128 Wide;",
    "    // m_timer.IsRunning() was the old spelling; a comment may name it",
    "    NS_LOG_INFO(\"PcapHelper::DLT_EN10MB is deprecated\");",
    "    it.WriteU32(crc);",
    "        : TestCase(\"takes at least its ACKs over the rate: \" + name)",
    "    NS_TEST_ASSERT_MSG_EQ(failed, (fails ? lossy : 0u), \"failed? \" << (a ? 1 : 2));",
]


def self_test(rules: list[Rule]) -> int:
    """Show on a tree of its own that every rule catches its samples, only outside
    ns3-compat.h, and lets the portable spellings through."""
    problems: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp)
        (tree / "src" / "core" / "model").mkdir(parents=True)
        (tree / "test").mkdir()
        (tree / "examples").mkdir()
        for i, sample in enumerate(BAD_SAMPLES):
            (tree / ("test" if i % 2 else "src") / f"bad-{i}.cc").write_text(
                f"// sample {i}\n{sample}\n")
        (tree / "examples" / "good.cc").write_text("\n".join(GOOD_SAMPLES) + "\n")
        (tree / COMPAT_HEADER).write_text("\n".join(BAD_SAMPLES) + "\n")
        findings = scan(tree, rules)
    by_file: dict[str, list[Finding]] = {}
    for f in findings:
        by_file.setdefault(f.path.name, []).append(f)
    for i, sample in enumerate(BAD_SAMPLES):
        got = by_file.pop(f"bad-{i}.cc", [])
        if not got:
            problems.append(f"no rule caught sample {i}: {sample.strip()}")
        elif any(f.line != 2 for f in got):
            problems.append(f"sample {i} reported on the wrong line")
    for name, got in by_file.items():
        problems.append(f"{name} flagged, which holds only allowed spellings: "
                        + "; ".join(f"{f.text} ({f.rule.difference})" for f in got))
    for rule in rules:
        if not any(rule.pattern.search(s) for s in BAD_SAMPLES):
            problems.append(f"the rule for '{rule.difference}' has no bad sample in "
                            f"{Path(__file__).name}: add one")
    for p in problems:
        print(f"FAIL: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"ok: {len(rules)} rules caught all {len(BAD_SAMPLES)} bad samples, outside "
          f"ns3-compat.h only, and passed {len(GOOD_SAMPLES)} portable spellings")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", type=Path, default=ROOT)
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    rules = read_rules(ROOT / TABLE_DOC)
    if args.self_test:
        return self_test(rules)
    root = args.root.resolve()
    findings = scan(root, rules)
    if findings:
        report(findings)
        print(f"FAIL: {len(findings)} use(s) of APIs that differ between ns-3 releases, "
              f"outside {COMPAT_HEADER} (rules: {TABLE_DOC})", file=sys.stderr)
        return 1
    print(f"ok: no use of the {len(rules)} APIs of {TABLE_DOC} outside {COMPAT_HEADER} "
          f"in {', '.join(SCANNED)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
