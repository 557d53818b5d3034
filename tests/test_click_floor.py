"""The browser profile of ``benchmarks.click_floor --profile``: script time by file, per click."""

from __future__ import annotations

from benchmarks.click_floor import script_by_file


def frame(url: str, name: str = "f") -> dict[str, object]:
    return {"functionName": name, "url": url, "lineNumber": 0}


def test_script_time_by_file_per_click_without_build_hash_or_idle() -> None:
    profile = {
        "nodes": [
            {"id": 1, "callFrame": frame("", "(idle)")},
            {"id": 2, "callFrame": frame("http://127.0.0.1:8501/static/js/react-dom.Dzbslgj4.js", "a")},
            {"id": 3, "callFrame": frame("http://127.0.0.1:8501/static/js/react-dom.Dzbslgj4.js", "b")},
            {"id": 4, "callFrame": frame("", "(program)")},
            {"id": 5, "callFrame": frame("http://127.0.0.1:8501/static/js/DataFrame.-f9-1zS0.js")},
        ],
        "samples": [1, 2, 3, 4, 5, 2, 1],
        "timeDeltas": [9000, 1000, 3000, 2000, 500, 2000, 9000],  # microseconds
    }
    spent = script_by_file(profile, clicks=2)
    assert spent == {"react-dom.js": 3.0, "(program)": 1.0, "DataFrame.js": 0.25}
    assert list(spent) == ["react-dom.js", "(program)", "DataFrame.js"]  # most first
