import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

__version__: str

Dim3 = Union[int, Sequence[int]]
Params = Mapping[Union[int, str], int]
_Config = Union[None, bool, str, "os.PathLike[str]"]

class WarpscopeError(Exception):
    message: str
    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    def __init__(
        self,
        message: str,
        file: Optional[str] = ...,
        line: Optional[int] = ...,
        column: Optional[int] = ...,
    ) -> None: ...

class PtxError(WarpscopeError, ValueError):
    code: str
    diagnostics: List[Dict[str, Any]]
    def __init__(self, diagnostic: Mapping[str, Any], diagnostics: List[Dict[str, Any]]) -> None: ...

class ConfigError(WarpscopeError, ValueError): ...

def analyze(
    ptx: str,
    *,
    block: Optional[Dim3] = ...,
    grid: Optional[Dim3] = ...,
    params: Optional[Params] = ...,
    kernel: Optional[str] = ...,
    arch: Optional[str] = ...,
    pointer_align: Optional[int] = ...,
    config: _Config = ...,
    name: str = ...,
) -> Dict[str, Any]: ...
def check(
    ptx: str,
    *,
    block: Optional[Dim3] = ...,
    grid: Optional[Dim3] = ...,
    params: Optional[Params] = ...,
    kernel: Optional[str] = ...,
    arch: Optional[str] = ...,
    pointer_align: Optional[int] = ...,
    config: _Config = ...,
    lints: Optional[Mapping[str, str]] = ...,
    name: str = ...,
) -> List[Dict[str, Any]]: ...
def report(
    ptx: str,
    *,
    format: str = ...,
    block: Optional[Dim3] = ...,
    grid: Optional[Dim3] = ...,
    params: Optional[Params] = ...,
    kernel: Optional[str] = ...,
    arch: Optional[str] = ...,
    pointer_align: Optional[int] = ...,
    config: _Config = ...,
    name: str = ...,
) -> str: ...

# Internal helpers shared with warpscope.triton.
def _request(
    block: Optional[Dim3],
    grid: Optional[Dim3],
    params: Optional[Params],
    kernel: Optional[str],
    arch: Optional[str],
    pointer_align: Optional[int],
    config: _Config,
    lints: Optional[Mapping[str, str]],
    triton: Optional[str] = ...,
) -> str: ...
def _result(text: str) -> Dict[str, Any]: ...
