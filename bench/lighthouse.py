"""`make lighthouse`: Lighthouse (npm, 12.x) on the home page and a 13-hand match page.

The pages are served as users get them: gunicorn, DEBUG off, collectstatic'ed hashed and
compressed files, on 127.0.0.1. Lighthouse runs headless against Debian's chromium with its
default mobile settings (a mid-range phone, simulated slow 4G). Prints the performance and
accessibility scores, the main timings and the bytes transferred.

Lighthouse is installed on first use into bench/.npm (git-ignored), pinned below.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.harness import ROOT, Gunicorn, prepare, server_env

LIGHTHOUSE = "lighthouse@12.8.2"  # 13.x needs Node >= 22; Debian 12 has Node 20
PREFIX = ROOT / "bench" / ".npm"
BINARY = PREFIX / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking "
    "--disable-component-update --disable-sync --no-first-run"
)
METRICS = {
    "first-contentful-paint": "FCP",
    "largest-contentful-paint": "LCP",
    "total-blocking-time": "TBT",
    "cumulative-layout-shift": "CLS",
    "total-byte-weight": "transferred",
}


def install() -> None:
    if not BINARY.exists():
        print(f"installing {LIGHTHOUSE} into {PREFIX} ...", flush=True)
        subprocess.run(
            ["npm", "install", "--prefix", str(PREFIX), LIGHTHOUSE, "--no-audit", "--no-fund"],
            check=True,
        )


def audit(url: str, output: Path) -> dict:
    subprocess.run(
        [
            str(BINARY),
            url,
            "--form-factor=mobile",
            "--only-categories=performance,accessibility",
            "--output=json",
            f"--output-path={output}",
            f"--chrome-flags={CHROME_FLAGS}",
            "--quiet",
        ],
        env={**os.environ, "CHROME_PATH": CHROMIUM},
        check=True,
    )
    return json.loads(output.read_text())


def main() -> int:
    install()
    with tempfile.TemporaryDirectory(prefix="cetele-lighthouse-") as tmp:
        env = server_env(f"sqlite:///{tmp}/lighthouse.sqlite3", Path(tmp) / "static")
        prepare(env)
        os.environ.update(env)
        from bench.bench_server import seed

        match = seed({"13": 13}, 0)["13"]
        with Gunicorn(env, workers=2) as server:
            pages = {
                "home page": f"{server.base}/",
                "match page, 13 hands": f"{server.base}/m/{match.edit_token}/",
            }
            print(f"{'page':<24}{'performance':>12}{'accessibility':>15}  timings")
            failed = False
            for name, url in pages.items():
                report = audit(url, Path(tmp) / "report.json")
                scores = {key: report["categories"][key]["score"] for key in report["categories"]}
                audits = report["audits"]
                timings = ", ".join(
                    f"{label} {audits[key]['displayValue']}"
                    for key, label in METRICS.items()
                    if audits.get(key, {}).get("displayValue")
                )
                print(
                    f"{name:<24}{scores['performance'] * 100:>12.0f}"
                    f"{scores['accessibility'] * 100:>15.0f}  {timings}"
                )
                failed |= scores["accessibility"] < 1
                for key, item in audits.items():
                    if item.get("score") == 0 and item.get("scoreDisplayMode") == "binary":
                        print(f"{'':<24}note: {key}: {item['title']}")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
