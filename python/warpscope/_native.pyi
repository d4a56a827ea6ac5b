"""Type stubs of the extension module (warpscope._native).

Requests and results are JSON text; use the functions of the `warpscope`
package, which build the requests and turn results into dicts or exceptions.
"""

__version__: str

def analyze(ptx: str, name: str, request: str) -> str:
    """The analysis contract as JSON text, or ``{"error": ...}``."""

def check(ptx: str, name: str, request: str) -> str:
    """Kernels and findings (suppressions applied, fingerprints) as JSON text."""

def report(ptx: str, name: str, request: str, format: str) -> str:
    """``{"text": ..., "diagnostics": [...]}`` as JSON text."""

def run_cli(argv: list[str]) -> int:
    """Runs the ``warpscope`` command line; returns its exit status."""
