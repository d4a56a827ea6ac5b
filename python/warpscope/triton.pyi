from typing import Any, Dict, Mapping, Optional, Union
import os

from . import Dim3, Params

def metadata_of(compiled: Any) -> Dict[str, Any]: ...
def ptx_of(compiled: Any) -> str: ...
def analyze(
    compiled: Any,
    *,
    grid: Optional[Dim3] = ...,
    params: Optional[Params] = ...,
    block: Optional[Dim3] = ...,
    lints: Optional[Mapping[str, str]] = ...,
    config: Union[None, bool, str, "os.PathLike[str]"] = ...,
) -> Dict[str, Any]: ...
