"""Command line: `python -m scoring score [FILE]`, `python -m scoring presets`,
`python -m scoring bench`.

`score` reads one request from FILE or stdin and prints the result JSON; an invalid request
(malformed JSON included) prints {"error": {"code", "field", "message"}} and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from scoring.contract import score_json
from scoring.errors import InvalidHand, invalid
from scoring.presets import PRESETS

EXIT_INVALID = 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scoring", description="101 Okey scoring")
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser("score", help="score one JSON request (FILE or stdin)")
    score.add_argument("file", nargs="?", help="request file; stdin when omitted")
    commands.add_parser("presets", help="print the built-in presets as JSON")
    bench = commands.add_parser("bench", help="time score_json over the public vectors")
    bench.add_argument("--rounds", type=int, default=2000, help="passes over the vectors")
    args = parser.parse_args(argv)

    if args.command == "presets":
        _print([{"slug": preset.slug, "rules": preset.rules} for preset in PRESETS.values()])
        return 0
    if args.command == "bench":
        from scoring.bench import run

        print(run(rounds=args.rounds))
        return 0
    try:
        _print(score_json(_read_request(args.file)))
    except InvalidHand as error:
        _print({"error": error.to_json()})
        return EXIT_INVALID
    return 0


def _read_request(path: str | None) -> Any:
    try:
        if path is None:
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(path, encoding="utf-8") as file:
                text = file.read()
        return json.loads(text)
    except OSError as error:
        raise invalid("invalid_json", "request", detail=error.strerror or str(error)) from error
    except (ValueError, RecursionError) as error:  # JSONDecodeError and UnicodeDecodeError
        raise invalid("invalid_json", "request", detail=str(error)[:200]) from error


def _print(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    sys.stdout.reconfigure(encoding="utf-8")
    sys.exit(main())
