// Guarded global atomics and reductions (and one guarded load, k2, for contrast), compiled by
// regen.sh with nvcc -arch=sm_90 -cubin: which ones ptxas predicates (atomics.txt). Added in stop 21.
extern "C" __global__ void k1(unsigned* ticket, int* out) {
  __shared__ int tile;
  if (threadIdx.x == 0) tile = atomicAdd(ticket, 1u);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile;
}
extern "C" __global__ void k2(float* p, int* out) {
  __shared__ float v;
  if (threadIdx.x == 0) v = p[blockIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
extern "C" __global__ void k3(unsigned* ticket, int* out) {
  unsigned t = 0;
  if (threadIdx.x == 0) t = atomicAdd(ticket, 1u);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = t;
}
extern "C" __global__ void red_bar(unsigned* c, int* out) {
  if (threadIdx.x < 5) atomicAdd(c + threadIdx.x, 1u);
  __syncthreads();
  out[threadIdx.x] = 1;
}
extern "C" __global__ void atom_then_load(unsigned* c, int* out, const int* in) {
  unsigned t = 0;
  if (threadIdx.x < 5) t = atomicAdd(c + threadIdx.x, 1u);
  int v = in[threadIdx.x];
  out[threadIdx.x] = t + v;
}
extern "C" __global__ void red_then_load(unsigned* c, int* out, const int* in) {
  if (threadIdx.x < 5) atomicAdd(c + threadIdx.x, 1u);
  int v = in[threadIdx.x];
  out[threadIdx.x] = v;
}
extern "C" __global__ void atom_ldbefore(unsigned* c, int* out, const int* in) {
  int v = in[threadIdx.x];
  unsigned t = 0;
  if (threadIdx.x < 5) t = atomicAdd(c + threadIdx.x, 1u);
  out[threadIdx.x] = t + v;
}
