"""``python -m parsing_core.lessons check [FILES]``: check lesson files (all of ``assets/lessons`` by
default); prints a report and exits 1 when any file has a problem."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .check import LESSONS_DIR, check_files, lesson_files, report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m parsing_core.lessons",
                                     description="Check lesson files: states, claims, questions.")
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="check lesson files (default: every file of assets/lessons)")
    check.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args(argv)
    lessons, problems = check_files(args.files or lesson_files(LESSONS_DIR))
    print(report(lessons, problems))
    return 1 if problems or not lessons else 0


if __name__ == "__main__":
    sys.exit(main())
