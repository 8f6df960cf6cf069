#!/usr/bin/env python3
"""Sums the JUnit XML reports of every test suite into one closing line.

Usage: test-summary.py REPORT.xml...
Prints one line per report, one line per skipped test with its reason (a
test skipped for a missing tool shows why), and then
`tests: N passed, N failed, N skipped`; exits 1 when any test failed or a
report is missing or unreadable.
"""

import sys
import xml.etree.ElementTree as ET


def count(path):
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else root.iter("testsuite")
    passed = failed = 0
    skipped = []
    for suite in suites:
        for case in suite.iter("testcase"):
            if case.find("failure") is not None or case.find("error") is not None:
                failed += 1
            elif (mark := case.find("skipped")) is not None or case.get("status") in ("notrun", "disabled"):
                name = ".".join(filter(None, (case.get("classname"), case.get("name"))))
                reason = mark.get("message") if mark is not None else case.get("status")
                skipped.append(f"{name}: {reason or 'no reason given'}")
            else:
                passed += 1
    return passed, failed, skipped


def main(paths):
    totals = [0, 0, 0]
    broken = False
    for path in paths:
        try:
            passed, failed, skipped = count(path)
        except (OSError, ET.ParseError) as err:
            print(f"{path}: unreadable report: {err}")
            broken = True
            continue
        print(f"{path}: {passed} passed, {failed} failed, {len(skipped)} skipped")
        for line in skipped:
            print(f"  skipped {line}")
        totals = [a + b for a, b in zip(totals, (passed, failed, len(skipped)))]
    print(f"tests: {totals[0]} passed, {totals[1]} failed, {totals[2]} skipped")
    return 1 if broken or totals[1] or not paths else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
