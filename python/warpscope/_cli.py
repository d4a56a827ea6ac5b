"""The `warpscope` console script: the same command line as the Rust binary
(`warpscope::cli::run`, called through the extension module)."""
from __future__ import annotations

import signal
import sys

from . import _native


def main() -> None:
    """Runs the command line with ``sys.argv`` and exits with its status."""
    # Ctrl-C should stop the command (and a language server) at once, as it
    # stops the Rust binary, not wait for Python's handler to run.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    argv = ["warpscope"] + sys.argv[1:]
    sys.stdout.flush()
    sys.exit(_native.run_cli(argv))


if __name__ == "__main__":
    main()
