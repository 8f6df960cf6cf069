"""Fails when a test could use a tool that a fresh machine lacks.

Run by lit under %python. Checks that
- this interpreter is the project's virtual environment (.venv), so %python
  and everything it imports come from scripts/setup;
- PATH, as lit gives it to tests, holds only the system's directories, the
  build's and LLVM's tool directories and .venv/bin;
- no RUN line of the lit suite starts a bare `python`/`python3` (found on
  PATH) or runs a Python script directly (its `#!/usr/bin/env python3` line
  finds an interpreter on PATH);
- no ctest command is a Python outside .venv or such a script;
- scripts/run-tests starts no Python but .venv's.
Prints every violation; exits 1 when there is one.
"""

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

SYSTEM_DIRS = {"/usr/sbin", "/usr/bin", "/sbin", "/bin"}
LLVM_TOOLS_DIR = "/usr/lib/llvm-19/bin"
PYTHON_WORD = re.compile(r"^python[0-9.]*$")
# A command position in a RUN line: its start, or after a pipe, `;`, `&&`,
# `||`, `(` or `env VAR=value...`.
COMMAND_START = re.compile(r"(?:^|[|;&(]\s*|\benv\s+(?:-\S+\s+)*(?:\S+=\S*\s+)*)([^\s|;&()]+)")


def is_python_script(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            first = file.readline(200)
    except OSError:
        return False
    return first.startswith(b"#!") and b"python" in first


def check_interpreter(source_root: Path) -> list[str]:
    venv = (source_root / ".venv").resolve()
    prefix = Path(sys.prefix).resolve()
    if prefix != venv or sys.prefix == sys.base_prefix:
        return [f"%python is {sys.executable} (prefix {sys.prefix}), not the project's {venv}"]
    return []


def check_path(source_root: Path, build_root: Path) -> list[str]:
    allowed = SYSTEM_DIRS | {
        str((source_root / ".venv" / "bin").resolve()),
        str((build_root / "bin").resolve()),
        LLVM_TOOLS_DIR,
    }
    return [
        f"PATH entry {entry} is outside the system's directories, the build and .venv"
        for entry in os.environ.get("PATH", "").split(os.pathsep)
        if entry and str(Path(entry).resolve()) not in allowed and entry not in allowed
    ]


def run_lines(test_file: Path) -> list[str]:
    lines = []
    for line in test_file.read_text(errors="replace").splitlines():
        match = re.search(r"RUN:(.*)$", line)
        if match:
            lines.append(match.group(1).strip().rstrip("\\"))
    return lines


def check_run_lines(source_root: Path) -> list[str]:
    problems = []
    for test_file in sorted((source_root / "test").rglob("*")):
        if test_file.suffix not in (".mlir", ".test") or not test_file.is_file():
            continue
        for line in run_lines(test_file):
            for command in COMMAND_START.findall(line):
                if PYTHON_WORD.match(os.path.basename(command)) or command.endswith(".py"):
                    rel = test_file.relative_to(source_root)
                    problems.append(f"{rel}: RUN line starts `{command}`; use %python: {line}")
    return problems


def check_ctest(source_root: Path, build_root: Path) -> list[str]:
    listing = subprocess.run(
        ["ctest", "--test-dir", str(build_root), "--show-only=json-v1"],
        check=True, capture_output=True, text=True,
    )
    venv_bin = (source_root / ".venv" / "bin").resolve()
    problems = []
    for test in json.loads(listing.stdout).get("tests", []):
        command = test.get("command") or []
        if not command:
            continue
        program = Path(command[0])
        if PYTHON_WORD.match(program.name) and program.parent.resolve() != venv_bin:
            problems.append(f"ctest {test['name']} runs {program}, not .venv's Python")
        elif is_python_script(program):
            problems.append(f"ctest {test['name']} runs the script {program}, whose #! finds a Python on PATH")
    return problems


def check_run_tests(source_root: Path) -> list[str]:
    problems = []
    script = source_root / "scripts" / "run-tests"
    for number, line in enumerate(script.read_text().splitlines(), 1):
        code = re.sub(r"^\s*run\s+", "", line.split("#", 1)[0])  # run CMD...: CMD
        for command in COMMAND_START.findall(code.strip()):
            if PYTHON_WORD.match(os.path.basename(command)):
                problems.append(f"scripts/run-tests:{number}: starts `{command}`; use .venv's Python")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-root", type=Path, required=True)
    parser.add_argument("--build-root", type=Path, required=True)
    args = parser.parse_args()
    problems = (
        check_interpreter(args.source_root)
        + check_path(args.source_root, args.build_root)
        + check_run_lines(args.source_root)
        + check_ctest(args.source_root, args.build_root)
        + check_run_tests(args.source_root)
    )
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
