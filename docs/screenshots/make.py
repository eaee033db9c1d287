"""Screenshots of the replay page, one per game: ``python docs/screenshots/make.py``.

Each recorded game below is written with ``kabucli replay LOG --html`` and opened at the
chosen event in headless Chromium (Debian's /usr/bin/chromium, driven by the Python package
playwright); the picture is saved as docs/screenshots/<game>.png. README.md shows them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

# game: (recorded game, event shown, extra options)
SHOTS = {
    "dare": ("replays/dare/3p-showdown-outright.kbl", 8, []),
    "kazu-tori": ("replays/kazu-tori/4p-jizo-handed-out-then-removed.kbl", 30, []),
    "yatchaba": ("replays/yatchaba/6p-later-guesser-right-80-20-odd-pot.kbl", 36, []),
    "uno-dare": ("replays/uno-dare/3p-first-card-dare.kbl", 40, []),
    "kabu-tsukuri": ("replays/kabu-tsukuri/3p-dealer-winner.kbl", 20, []),
}


def main() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        for game, (log, at, extra) in SHOTS.items():
            out = Path(tmp) / f"{game}.html"
            subprocess.run([sys.executable, "-m", "kabucli", "replay", str(ROOT / log),
                            "--html", str(out), *extra], check=True, env=env,
                           stdout=subprocess.DEVNULL)
            page.goto(f"{out.as_uri()}#{at}")
            page.wait_for_selector("#event-index")
            png = HERE / f"{game}.png"
            page.screenshot(path=str(png))
            print(f"{png.relative_to(ROOT)}: {log} at event {at}")
        browser.close()


if __name__ == "__main__":
    main()
