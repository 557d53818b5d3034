"""What one click costs a browser: a bare Streamlit page against the stepper, one tab alone.

    python -m benchmarks.click_floor [--clicks 25]

``benchmarks.load`` finds that the browsers, not the server, are what a class on one machine
runs out of.  This asks how much of that any Streamlit page costs.  One Chromium tab (Debian's,
1440×900) clicks a button ``--clicks`` times, a second apart, on three pages: a page of one
button and one line of text that counts the clicks; the same with a 12-node Graphviz chart
redrawn at each click (``st.graphviz_chart``, as the stepper draws); and the stepper itself on
the load benchmark's 12-token arc-standard sentence ("Oracle step").  It prints the CPU of all
the Chromium processes per click, less what the open tab uses when idle (measured over 10 s
beforehand), and the median latency from the click to the changed page.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from playwright.async_api import Browser, Page, Playwright, async_playwright

from benchmarks.common import table
from benchmarks.load import ARGS, CHROMIUM, DRAWING, QUERY, BrowserCPU, free_port, start_server

BARE_PAGE = '''
import streamlit as st

clicks = st.session_state.get("clicks", 0)
if st.button("Step", key="step"):
    clicks = st.session_state["clicks"] = clicks + 1
st.markdown(f"<div id='out'>clicks {clicks}</div>", unsafe_allow_html=True)
if st.query_params.get("kind") == "graph":
    nodes = " ".join(f'w{i} [label="word{i}"];' for i in range(12))
    arcs = " ".join(f"w{i} -> w{(i * 7 + clicks) % 12};" for i in range(clicks % 12))
    st.graphviz_chart(f"digraph {{ rankdir=LR; {nodes} {arcs} }}", key=f"drawing-{clicks}")
'''


async def open_page(url: str, changed: str) -> tuple[Playwright, Browser, Page]:
    pw = await async_playwright().start()
    browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    page = await (await browser.new_context(viewport={"width": 1440, "height": 900})).new_page()
    await page.goto(url, timeout=90_000)
    await page.locator(changed).first.wait_for(timeout=90_000)
    await asyncio.sleep(3)  # the first load's work settles
    return pw, browser, page


async def measure(url: str, button: str, changed: str, clicks: int) -> tuple[float, float]:
    """(browser CPU ms per click less idle, median ms from click to changed page)."""
    pw, browser, page = await open_page(url, changed)
    idle = BrowserCPU()
    idle.start()
    await asyncio.sleep(10)
    idle.poll()
    idle_per_s = idle.seconds() / 10
    cpu, latencies = BrowserCPU(), []
    cpu.start()
    started = time.monotonic()
    for _ in range(clicks):
        before = await page.locator(changed).first.inner_html()
        start = time.perf_counter()
        await page.locator(button).first.click()
        await page.wait_for_function(
            "([sel, old]) => { const e = document.querySelector(sel); return e && e.innerHTML !== old; }",
            arg=[changed, before], timeout=30_000)
        latencies.append(time.perf_counter() - start)
        await asyncio.sleep(1.0)
        cpu.poll()
    busy = cpu.seconds() - idle_per_s * (time.monotonic() - started)
    await browser.close()
    await pw.stop()
    return 1000 * busy / clicks, 1000 * statistics.median(latencies)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clicks", type=int, default=25)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "bare.py"
        script.write_text(BARE_PAGE)
        port = free_port()
        server = start_server(port, script=str(script))
        try:
            for kind, what in (("text", "one button, one line of text"),
                               ("graph", "one button, a 12-node Graphviz chart")):
                ms, p50 = asyncio.run(measure(f"http://127.0.0.1:{port}/?kind={kind}", ".st-key-step button",
                                              "#out", args.clicks))
                rows.append([what, args.clicks, f"{ms:.0f}", f"{p50:.0f}"])
        finally:
            server.kill()
    port = free_port()
    server = start_server(port)
    try:
        ms, p50 = asyncio.run(measure(f"http://127.0.0.1:{port}{QUERY}", ".st-key-stepper-oracle_step button",
                                      DRAWING, min(args.clicks, 20)))  # the parse has 24 steps
        rows.append(["the stepper, Oracle step", min(args.clicks, 20), f"{ms:.0f}", f"{p50:.0f}"])
    finally:
        server.kill()
    print(table(["page", "clicks", "browser CPU ms / click", "p50 ms"], rows))


if __name__ == "__main__":
    main()
