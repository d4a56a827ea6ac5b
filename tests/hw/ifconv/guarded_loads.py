"""guarded_loads.py: writes guarded_loads.cu (python3 guarded_loads.py >
guarded_loads.cu), probes of when ptxas branches around a guarded load
(`@q ld.global`) instead of predicating it. Each kernel is one shape:
k_w{bits}_c{loads}_{after}_{before}_{guard}: `loads` guarded loads of
`bits` bits (128: `.v4.u32`), under a guard that varies by lane
(`(tid >> 2) & 1`), by warp (`(tid >> 5) & 1`) or by block (`ctaid.x <
n`); before them nothing, an unguarded load or an unguarded store; after
them a store under the same guard (`tail`), an unguarded store of the
value (`use`) or arithmetic then that store (`arith`). The named kernels
at the end vary one thing more; the `s_*` kernels put guarded stores in
the middle of a kernel (`stores`). guarded_loads.txt says, per kernel,
whether its guarded loads (for `s_*`: stores) are predicated (`pred`) or
branched around (`branch`) in ptxas's SASS (`regen.sh`)."""
import itertools

GUARDS = {
    "lane": "(threadIdx.x >> 2) & 1",
    "warp": "(threadIdx.x >> 5) & 1",
    "blk": "blockIdx.x < n",
}


def asm_load(k, w):
    if w == 128:
        return [
            f"  unsigned a{k} = 0, b{k} = 0, c{k} = 0, d{k} = 0;",
            f'  asm volatile("{{\\n\\t.reg .pred q;\\n\\tsetp.ne.s32 q, %5, 0;\\n\\t@q ld.global.v4.u32 {{%0, %1, %2, %3}}, [%4];\\n\\t}}" : "+r"(a{k}), "+r"(b{k}), "+r"(c{k}), "+r"(d{k}) : "l"(in + (size_t)(i + {k} * 8192) * 16), "r"(on) : "memory");',
            f"  unsigned v{k} = a{k} ^ b{k} ^ c{k} ^ d{k};",
        ]
    if w == 64:
        return [
            f"  unsigned long long t{k} = 0;",
            f'  asm volatile("{{\\n\\t.reg .pred q;\\n\\tsetp.ne.s32 q, %2, 0;\\n\\t@q ld.global.u64 %0, [%1];\\n\\t}}" : "+l"(t{k}) : "l"(in + (size_t)(i + {k} * 8192) * 8), "r"(on) : "memory");',
            f"  unsigned v{k} = (unsigned)t{k} ^ (unsigned)(t{k} >> 32);",
        ]
    if w == 16:
        return [
            f"  unsigned short t{k} = 0;",
            f'  asm volatile("{{\\n\\t.reg .pred q;\\n\\tsetp.ne.s32 q, %2, 0;\\n\\t@q ld.global.u16 %0, [%1];\\n\\t}}" : "+h"(t{k}) : "l"(in + (size_t)(i + {k} * 8192) * 2), "r"(on) : "memory");',
            f"  unsigned v{k} = t{k};",
        ]
    ty, scale = ("u8", "") if w == 8 else ("u32", " * 4")
    return [
        f"  unsigned t{k} = 0;",
        f'  asm volatile("{{\\n\\t.reg .pred q;\\n\\tsetp.ne.s32 q, %2, 0;\\n\\t@q ld.global.{ty} %0, [%1];\\n\\t}}" : "+r"(t{k}) : "l"(in + (size_t)(i + {k} * 8192){scale}), "r"(on) : "memory");',
        f"  unsigned v{k} = t{k};",
    ]


def shapes():
    out = ["#define LB(n) __launch_bounds__(n)"]
    for g, w, cnt, after, before in itertools.product(
        GUARDS, [8, 16, 32, 64, 128], [1, 2], ["tail", "use", "arith"], ["none", "ld", "st"]
    ):
        name = f"k_w{w}_c{cnt}_{after}_{before}_{g}"
        out.append(f'extern "C" __global__ void LB(256) {name}(const char* in, char* out, char* o2, int n) {{')
        out.append(f"  int i = blockIdx.x * blockDim.x + threadIdx.x; int on = {GUARDS[g]};")
        if before == "ld":
            out.append("  unsigned x = ((const unsigned*)in)[i + 65536];")
        if before == "st":
            out.append("  ((unsigned*)o2)[i] = 7u;")
        for k in range(cnt):
            out += asm_load(k, w)
        s = " ^ ".join(f"v{k}" for k in range(cnt)) + (" ^ x" if before == "ld" else "")
        if after == "tail":
            out.append(f'  asm volatile("{{\\n\\t.reg .pred q;\\n\\tsetp.ne.s32 q, %2, 0;\\n\\t@q st.global.u32 [%0], %1;\\n\\t}}" :: "l"(out + (size_t)i * 4), "r"({s}), "r"(on) : "memory");')
        elif after == "use":
            out.append(f"  ((unsigned*)out)[i] = {s};")
        else:
            out.append(f"  unsigned z = {s}; for (int r = 0; r < 3; ++r) z = z * 2654435761u + (z >> 7);")
            out.append("  ((unsigned*)out)[i] = z;")
        out.append("}")
    return out


def stores():
    """s_w{bits}_c{stores}_{after}_{guard}: one or two guarded stores of 32
    or 128 bits in the middle of a kernel, followed by a load and a store, a
    store, arithmetic and a store, or nothing (the last is then the
    kernel's tail)."""
    out = []
    for g, w, cnt, after in itertools.product(GUARDS, [32, 128], [1, 2], ["ld", "st", "arith", "none"]):
        name = f"s_w{w}_c{cnt}_{after}_{g}"
        out.append(f'extern "C" __global__ void LB(256) {name}(const unsigned* in, unsigned* out, unsigned* o2, int n) {{')
        out.append(f"  int i = blockIdx.x * blockDim.x + threadIdx.x; int on = {GUARDS[g]}; unsigned v = in[i];")
        for k in range(cnt):
            if w == 32:
                out.append(f'  asm volatile("{{\\n\\t.reg .pred q;\\n\\tsetp.ne.s32 q, %2, 0;\\n\\t@q st.global.u32 [%0], %1;\\n\\t}}" :: "l"(out + i + {k} * 8192), "r"(v + {k}), "r"(on) : "memory");')
            else:
                out.append(f'  asm volatile("{{\\n\\t.reg .pred q;\\n\\tsetp.ne.s32 q, %5, 0;\\n\\t@q st.global.v4.u32 [%0], {{%1, %2, %3, %4}};\\n\\t}}" :: "l"(out + (size_t)(i + {k} * 8192) * 4), "r"(v), "r"(v + 1), "r"(v + 2), "r"(v + {k}), "r"(on) : "memory");')
        if after == "ld":
            out.append("  o2[i] = in[i + 65536] * 3u;")
        elif after == "st":
            out.append("  o2[i] = v * 5u;")
        elif after == "arith":
            out.append("  unsigned z = v; for (int r = 0; r < 3; ++r) z = z * 2654435761u + (z >> 7); o2[i] = z;")
        out.append("}")
    return out


NAMED = r'''
#define LDG32(t, p, on) asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.s32 q, %2, 0;\n\t@q ld.global.u32 %0, [%1];\n\t}" : "+r"(t) : "l"(p), "r"(on) : "memory")
#define LDS32(t, p, on) asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.s32 q, %2, 0;\n\t@q ld.shared.u32 %0, [%1];\n\t}" : "+r"(t) : "r"(p), "r"(on) : "memory")
// an unguarded load after the guarded one, before its use
extern "C" __global__ void LB(256) post_ld(const unsigned* in, unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; int on = (threadIdx.x >> 2) & 1; unsigned t = 0;
  LDG32(t, in + i, on); unsigned x = in[i + 65536]; out[i] = t ^ x; }
// a shared load before the guarded global load
extern "C" __global__ void LB(256) pre_lds(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[256]; s[threadIdx.x] = threadIdx.x; __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x; int on = (threadIdx.x >> 2) & 1; unsigned t = 0;
  unsigned x = s[threadIdx.x ^ 1]; LDG32(t, in + i, on); out[i] = t ^ x; }
// an earlier load, then a barrier, then the guarded load
extern "C" __global__ void LB(256) pre_ld_bar(const unsigned* in, unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; int on = (threadIdx.x >> 2) & 1; unsigned t = 0;
  unsigned x = in[i + 65536]; out[i + 65536] = x; __syncthreads(); LDG32(t, in + i, on); out[i] = t; }
// a guarded shared load alone
extern "C" __global__ void LB(256) shared_only(unsigned* out) {
  __shared__ unsigned s[256]; s[threadIdx.x] = threadIdx.x * 3; __syncthreads();
  int on = (threadIdx.x >> 2) & 1; unsigned t = 0;
  LDS32(t, (unsigned)__cvta_generic_to_shared(s + (threadIdx.x ^ 3)), on);
  out[blockIdx.x * blockDim.x + threadIdx.x] = t; }
// no default value in the destination
extern "C" __global__ void LB(256) nodefault(const unsigned* in, unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; int on = (threadIdx.x >> 2) & 1; unsigned t;
  asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.s32 q, %2, 0;\n\t@q ld.global.u32 %0, [%1];\n\t}" : "=r"(t) : "l"(in + i), "r"(on) : "memory");
  out[i] = t; }
// an unrelated store between the guarded load and its use
extern "C" __global__ void LB(256) ld_then_st_other(const unsigned* in, unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; int on = (threadIdx.x >> 2) & 1; unsigned t = 0;
  LDG32(t, in + i, on); out[i + 65536] = 5u; out[i] = t; }
// .v2 of 32 bits (two destination registers)
extern "C" __global__ void LB(256) v2_tail(const uint2* in, uint2* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; int on = (threadIdx.x >> 2) & 1; unsigned a = 0, b = 0;
  asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.s32 q, %3, 0;\n\t@q ld.global.v2.u32 {%0, %1}, [%2];\n\t}" : "+r"(a), "+r"(b) : "l"(in + i), "r"(on) : "memory");
  asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.s32 q, %3, 0;\n\t@q st.global.v2.u32 [%0], {%1, %2};\n\t}" :: "l"(out + i), "r"(a + 1), "r"(b), "r"(on) : "memory"); }
'''


if __name__ == "__main__":
    print("\n".join(shapes() + stores()))
    print(NAMED)
