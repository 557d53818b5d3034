"""A derivation sheet for homework: the transitions given, the configurations left to fill in.

The sheet is the derivation table of a parse with only its first row written out, the initial
configuration (σ = [ROOT], β = the sentence, A = ∅); every later row keeps its transition and
leaves the stack, the buffer and the arcs blank, for the student to work out by hand.  The CSV
and LaTeX downloads of the same derivation are the answer key.  Columns other than the
derivation's (a cost, say) are left off the sheet: they would give answers away.

>>> import pandas as pd
>>> frame = pd.DataFrame({"ROW": [1, 2, 3], "TRANSITION": ["", "SH", "LA"],
...                       "STACK": ["[ROOT]", "[ROOT He]", "[ROOT]"],
...                       "BUFFER": ["[He left]", "[left]", "[left]"],
...                       "ARCS": ["∅", "", "+(He ← left)"], "COST": [0, 0, 0]})
>>> blank_sheet(frame).to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
[{'ROW': 1, 'TRANSITION': '', 'STACK': '[ROOT]', 'BUFFER': '[He left]', 'ARCS': '∅'},
 {'ROW': 2, 'TRANSITION': 'SH', 'STACK': '', 'BUFFER': '', 'ARCS': ''},
 {'ROW': 3, 'TRANSITION': 'LA', 'STACK': '', 'BUFFER': '', 'ARCS': ''}]
"""

from __future__ import annotations

import html

import pandas as pd

from ui.views.tables import DERIVATION_COLUMNS

BLANKS = ["STACK", "BUFFER", "ARCS"]  # what the student writes in
HEADINGS = {"ROW": "#", "TRANSITION": "transition", "STACK": "stack σ", "BUFFER": "buffer β",
            "ARCS": "arc added"}
WIDTHS = {"ROW": "4%", "TRANSITION": "12%", "STACK": "28%", "BUFFER": "28%", "ARCS": "28%"}
PRINT_CSS = """
@page { size: A4 landscape; margin: 14mm; }
body { font-family: Helvetica, Arial, sans-serif; font-size: 11pt; color: #000; }
h1 { font-size: 16pt; margin: 0 0 4mm 0; }
p { margin: 0 0 3mm 0; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th, td { border: 1px solid #000; padding: 1mm 2mm; text-align: left; vertical-align: middle; }
th { background: #EEEEEE; }
td { height: 9mm; }
tr { break-inside: avoid; }
.given { color: #444; }
"""


def blank_sheet(frame: pd.DataFrame) -> pd.DataFrame:
    """The derivation's columns, with the stack, buffer and arcs blanked after the first row."""
    sheet = frame[DERIVATION_COLUMNS].astype({"STACK": str, "BUFFER": str, "ARCS": str})
    sheet.loc[sheet.index[1:], BLANKS] = ""
    return sheet


def sheet_html(frame: pd.DataFrame, system: str | None = None) -> str:
    """A printable HTML page (A4 landscape) of :func:`blank_sheet`, with room to write in."""
    sheet = blank_sheet(frame)
    parser = f" with {html.escape(system)}" if system else ""
    moves = len(sheet) - 1
    head = "".join(f"<th style='width:{WIDTHS[c]}'>{html.escape(HEADINGS[c])}</th>" for c in sheet.columns)
    body = "\n".join(sheet_row(row) for row in sheet.itertuples(index=False))
    return (f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>Derivation sheet</title>"
            f"<style>{PRINT_CSS}</style></head><body>\n"
            f"<h1>Derivation sheet</h1>\n<p>Name: ______________________ &nbsp; Date: ____________</p>\n"
            f"<p>Parse the sentence{parser} by the {moves} transitions given.  After each one, write the "
            "stack σ (bottom first), the buffer β (front first) and the arc it adds, if any, its arrow "
            "pointing from head to dependent (He ← sent).  "
            "Row 1 is the start.</p>\n"
            f"<table><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table>\n</body></html>\n")


def sheet_row(row: tuple[object, ...]) -> str:
    cells = "".join(f"<td class='given'>{html.escape(str(value))}</td>" for value in row)
    return f"<tr>{cells}</tr>"
