"""Counts a pytest JUnit XML report: passed, failed, errors (a fixture failed), skipped; then one
line per test that did not pass, with the first line of its failure, so that failures can be
grouped by cause."""

import sys
import xml.etree.ElementTree as ET


def main(path):
    root = ET.parse(path).getroot()
    counts = {"passed": 0, "failed": 0, "error": 0, "skipped": 0}
    lines = []
    for case in root.iter("testcase"):
        name = "{}::{}".format(case.get("classname", "").split(".")[-1], case.get("name"))
        outcome = "passed"
        message = ""
        for tag in ("failure", "error", "skipped"):
            el = case.find(tag)
            if el is not None:
                outcome = "failed" if tag == "failure" else tag
                message = (el.get("message") or el.text or "").strip().splitlines()[0:1]
                message = message[0][:200] if message else ""
                break
        counts[outcome] += 1
        if outcome in ("failed", "error"):
            lines.append("{:7} {}  {}".format(outcome, name, message))
    total = sum(counts.values())
    print("\n{} tests: {} passed, {} failed, {} errors, {} skipped".format(total, counts["passed"], counts["failed"], counts["error"], counts["skipped"]))
    for line in lines:
        print(line)


if __name__ == "__main__":
    main(sys.argv[1])
