"""Writes probes.cu: one loop per kernel (regen.sh compiles it).

Kernel k's body statements are on lines 100*(k+1) + 10 + j (j: the
statement), so a SASS instruction's line names its probe and statement."""
# probe kernels: one loop each; access j of kernel k on line 10000*? -> we use #line
import sys
ks=[]
def K(name, params, pre, loop, body, post="", pragma=""):
    ks.append((name, params, pre, loop, body, post, pragma))
P="const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi"
LANE="int lane = threadIdx.x & 31; float s = 0.f;"
# rolled-by-NVVM shape: j <= hi (signed, may not terminate for hi=INT_MAX)
for nl in (1,2,4,8):
    body=["s += a[j + %d*n];"%i for i in range(nl)]
    K(f"le_ld{nl}",P,LANE,"for (int j = lo + lane; j <= hi; j += 32)",body,"o[threadIdx.x] = s;")
K("le_ldst",P,LANE,"for (int j = lo + lane; j <= hi; j += 32)",["o[j] = a[j] * 2.f;"])
K("le_ldst2",P,LANE,"for (int j = lo + lane; j <= hi; j += 32)",["float v = a[j];","o[j] = v;","o[j + n] = v + b[j];"])
K("le_st",P,LANE,"for (int j = lo + lane; j <= hi; j += 32)",["o[j] = (float)j;"])
K("le_shfl",P,LANE,"for (int j = lo + lane; j <= hi; j += 32)",["float v = a[j];","s += __shfl_xor_sync(0xffffffff, v, 1);"],"o[threadIdx.x] = s;")
K("le_atom",P,LANE,"for (int j = lo + lane; j <= hi; j += 32)",["atomicAdd(o + (j & 255), a[j]);"])
K("le_red_used",P,LANE,"for (int j = lo + lane; j <= hi; j += 32)",["s += atomicAdd(o + (j & 255), a[j]);"],"o[threadIdx.x] = s;")
K("le_sync","const float* __restrict__ a, float* __restrict__ o, int n, int lo, int hi","__shared__ float t[256]; int lane = threadIdx.x; float s = 0.f;","for (int j = lo + lane; j <= hi; j += 256)",["t[threadIdx.x] = a[j];","__syncthreads();","s += t[255 - threadIdx.x];","__syncthreads();"],"o[threadIdx.x] = s;")
K("le_shared","const float* __restrict__ a, float* __restrict__ o, int n, int lo, int hi","__shared__ float t[1024]; int lane = threadIdx.x & 31; float s = 0.f; t[threadIdx.x] = a[threadIdx.x]; __syncthreads();","for (int j = lo + lane; j <= hi; j += 32)",["s += t[j & 1023];"],"o[threadIdx.x] = s;")
for na in (4,8,16,32,64,128):
    body=["float v = a[j];"]+["v = v * v + %d.f;"%i for i in range(na)]+["s += v;"]
    K(f"le_alu{na}",P,LANE,"for (int j = lo + lane; j <= hi; j += 32)",body,"o[threadIdx.x] = s;")
K("le_div",P,LANE,"for (int j = lo + lane; j <= hi; j += 32)",["s += a[j] / b[j];"],"o[threadIdx.x] = s;")
K("le_idiv",P,LANE,"for (int j = lo + lane; j <= hi; j += 32)",["s += a[j / n];"],"o[threadIdx.x] = s;")
K("le_nounroll",P,LANE,"for (int j = lo + lane; j <= hi; j += 32)",["s += a[j];"],"o[threadIdx.x] = s;",pragma="#pragma unroll 1")
K("le_64",P.replace("int lo, int hi","long lo, long hi"),LANE,"for (long j = lo + lane; j <= hi; j += 32)",["s += a[j];"],"o[threadIdx.x] = s;")
K("le_u32",P.replace("int lo, int hi","unsigned lo, unsigned hi"),LANE,"for (unsigned j = lo + lane; j <= hi; j += 32)",["s += a[j];"],"o[threadIdx.x] = s;")
# const bound, lane start
K("c1000",P,LANE,"for (int j = lane; j < 1000; j += 32)",["s += a[j];"],"o[threadIdx.x] = s;")
K("c1000_4",P,LANE,"for (int j = lane; j < 1000; j += 32)",["s += a[j] + a[j+n] + a[j+2*n] + a[j+3*n];"],"o[threadIdx.x] = s;")
K("c250",P,LANE,"for (int j = lane; j < 250; j += 32)",["s += a[j];"],"o[threadIdx.x] = s;")
K("c1000_t128",P,"int lane = threadIdx.x; float s = 0.f;","for (int j = lane; j < 1000; j += 128)",["s += a[j];"],"o[threadIdx.x] = s;")
K("mul2_lt",P,LANE,"for (int j = lane; j * 2 < n; j += 64)",["s += a[j];"],"o[threadIdx.x] = s;")
# runtime bound j < n, lane start (NVVM unrolls by 4)
for nl in (1,2,4):
    body=["s += a[j + %d*lo];"%i for i in range(nl)]
    K(f"lt_ld{nl}",P,LANE,"for (int j = lane; j < n; j += 32)",body,"o[threadIdx.x] = s;")
K("lt_f4","const float4* __restrict__ a, float* __restrict__ o, int n",LANE,"for (int j = lane; j < n; j += 32)",["float4 v = a[j];","s += v.x + v.y + v.z + v.w;"],"o[threadIdx.x] = s;")
K("lt_copy",P,LANE,"for (int j = lane; j < n; j += 32)",["o[j] = a[j];"])
K("lt_copy_base",P,"int lane = threadIdx.x & 31; const size_t base = (size_t)blockIdx.x * n;","for (int j = lane; j < n; j += 32)",["o[base + j] = a[base + j];"])
K("lt_copy_base128",P,"int lane = threadIdx.x; const size_t base = (size_t)blockIdx.x * n;","for (int j = lane; j < n; j += 128)",["o[base + j] = a[base + j];"])
K("lt_sum_base128",P,"int lane = threadIdx.x; float s=0.f; const size_t base = (size_t)blockIdx.x * n;","for (int j = lane; j < n; j += 128)",["s += a[base + j];"],"o[threadIdx.x] = s;")
K("lt_t128",P,"int lane = threadIdx.x; float s = 0.f;","for (int j = lane; j < n; j += 128)",["s += a[j];"],"o[threadIdx.x] = s;")
K("lt_bdim",P,"int lane = threadIdx.x; float s = 0.f;","for (int j = lane; j < n; j += blockDim.x)",["s += a[j];"],"o[threadIdx.x] = s;")
K("lt_grid",P,"float s = 0.f;","for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += blockDim.x * gridDim.x)",["s += a[j];"],"o[threadIdx.x] = s;")
K("lt_64",P.replace("int n,","long n,"),LANE,"for (long j = lane; j < n; j += 32)",["s += a[j];"],"o[threadIdx.x] = s;")
for na in (8,16,32):
    body=["float v = a[j];"]+["v = v * v + %d.f;"%i for i in range(na)]+["s += v;"]
    K(f"lt_alu{na}",P,LANE,"for (int j = lane; j < n; j += 32)",body,"o[threadIdx.x] = s;")
K("lt_nounroll",P,LANE,"for (int j = lane; j < n; j += 32)",["s += a[j];"],"o[threadIdx.x] = s;",pragma="#pragma unroll 1")
K("lt_shfl",P,LANE,"for (int j = lane; j < n; j += 32)",["float v = a[j];","s += __shfl_xor_sync(0xffffffff, v, 1);"],"o[threadIdx.x] = s;")
K("lt_shared","const float* __restrict__ a, float* __restrict__ o, int n, int lo, int hi","__shared__ float t[1024]; int lane = threadIdx.x & 31; float s = 0.f; t[threadIdx.x] = a[threadIdx.x]; __syncthreads();","for (int j = lane; j < n; j += 32)",["s += t[j & 1023];"],"o[threadIdx.x] = s;")
# NVVM-unrolled bodies of stores (tests/hw/blind5 ln_bwd_fused's zeroing loop)
SH2="__shared__ float sg[4][1024]; __shared__ float sb[4][1024]; int tx = threadIdx.x, ty = threadIdx.y;"
SHPOST="__syncthreads(); o[threadIdx.x] = sg[ty][tx + 1] + sb[ty][tx + 2];"
K("lt_zsh1","float* o, int n","__shared__ float sg[4][1024]; __shared__ float sb[4][1024]; int tx = threadIdx.x, ty = threadIdx.y;","for (int c = tx; c < n; c += 32)",["sg[ty][c] = 0.f;"],SHPOST)
K("lt_zsh2","float* o, int n",SH2,"for (int c = tx; c < n; c += 32)",["sg[ty][c] = 0.f;","sb[ty][c] = 0.f;"],SHPOST)
K("lt_zg2","float* o, float* q, int n","int tx = threadIdx.x;","for (int c = tx; c < n; c += 32)",["o[c] = 0.f;","q[c] = 0.f;"])
K("lt_vg2","float* o, float* q, int n","int tx = threadIdx.x;","for (int c = tx; c < n; c += 32)",["o[c] = (float)c;","q[c] = (float)tx;"])
K("lt_sh2ld","const float* __restrict__ a, float* o, int n",SH2,"for (int c = tx; c < n; c += 32)",["sg[ty][c] = a[c];","sb[ty][c] = 1.f;"],SHPOST)
# data-dependent exit
K("le_break",P,LANE,"for (int j = lo + lane; j <= hi; j += 32)",["float v = a[j];","if (v > 1.f) break;","s += v;"],"o[threadIdx.x] = s;")
out=['#define LB(n) __launch_bounds__(n)']
line=1000
names=[]
for k,(name,params,pre,loop,body,post,pragma) in enumerate(ks):
    base=(k+1)*100
    out.append(f'#line {base}')
    out.append(f'extern "C" __global__ void LB(256) {name}({params}) {{')
    out.append(pre)
    if pragma: out.append(pragma)
    out.append(loop+" {")
    for i,b in enumerate(body):
        out.append(f'#line {base+10+i}')
        out.append(b)
    out.append(f'#line {base+90}')
    out.append("}")
    out.append(post)
    out.append("}")
    names.append(name)
print("\n".join(out))
