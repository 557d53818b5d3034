"""A job for tests/test_standby.py: ``python -m tests.standby_probe OUT``.

Writes what it was given (its arguments, one variable of its environment, its process id) to
``OUT``, says something on its error output, waits for ``OUT.go`` to exist, and exits with 3.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

if __name__ == "__main__":
    out = Path(sys.argv[1])
    out.write_text(json.dumps({"argv": sys.argv, "probe": os.environ.get("PARSING_PROBE"), "pid": os.getpid(),
                               "torch_imported_before": "torch" in sys.modules}))
    print("the probe ran", file=sys.stderr, flush=True)
    deadline = time.monotonic() + 60
    while not out.with_suffix(".go").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    sys.exit(3)
