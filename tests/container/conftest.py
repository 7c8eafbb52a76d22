"""tests/container runs only in its own leg (scripts/container-test.sh), which builds the image
and says how to reach the stack; anywhere else (leg 1's `pytest tests`) nothing is collected."""

import os

if not os.environ.get("CETELE_COMPOSE"):
    collect_ignore_glob = ["test_*.py"]
