"""Shared fixtures: the repository's PTX and Triton fixtures."""
from __future__ import annotations

import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
TRITON = REPO / "tests" / "fixtures" / "triton"

# A kernel whose two accesses differ only in their lane stride:
# `in[tid]` (4-byte lanes, contiguous) and `out[tid * 32]` (128 bytes apart).
STRIDED_PTX = """
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<8>;
    .reg .f32 %f<2>;
    ld.param.u64 %rd1, [k_param_0];
    ld.param.u64 %rd2, [k_param_1];
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd5, %r1, 4;
    add.s64 %rd6, %rd3, %rd5;
    ld.global.f32 %f1, [%rd6];
    mul.wide.u32 %rd5, %r1, 128;
    add.s64 %rd7, %rd4, %rd5;
    st.global.f32 [%rd7], %f1;
    ret;
}
"""


@pytest.fixture
def strided_ptx() -> str:
    return STRIDED_PTX


@pytest.fixture
def repo() -> pathlib.Path:
    return REPO


@pytest.fixture
def triton_dir() -> pathlib.Path:
    return TRITON
