// warpscope hardware suite (tests/hw): a "library header" whose helper is
// inlined into a project helper (arith.cu) that is inlined into a kernel, so
// that the PTX carries a three-level `.loc ... inlined_at` chain.
#pragma once

__device__ __forceinline__ float hdr_load(const float* p, int k)
{
    return p[k];
}

__device__ __forceinline__ void hdr_store(float* p, int k, float v)
{
    p[k] = v;
}
