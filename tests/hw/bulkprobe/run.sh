#!/usr/bin/env bash
# Device run: bash tests/hw/bulkprobe/run.sh (from the repository root); results in $OUT/bulkprobe.tgz.
set -uo pipefail
D=$(cd "$(dirname "$0")" && pwd)
W=/tmp/bulkprobe; rm -rf "$W"; mkdir -p "$W"
cd "$W"
nvcc -arch=sm_90a -O3 -lineinfo -o probe "$D/bulk_probe.cu" > build.log 2>&1; echo "nvcc exit $?" >> build.log
./probe > plain.log 2>&1
M=l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum,l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum,l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum,l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum,l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_red.sum,l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_red.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_red.sum,l1tex__m_xbar2l1tex_read_bytes.sum,smsp__inst_executed.sum
timeout 300 ncu --metrics "$M" --csv --page raw ./probe > ncu.csv 2> ncu.err; echo "ncu exit $?" >> ncu.err
cuobjdump -sass probe > sass.txt 2>&1
tar czf "$OUT/bulkprobe.tgz" -C /tmp bulkprobe
