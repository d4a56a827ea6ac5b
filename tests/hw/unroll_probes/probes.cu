#define LB(n) __launch_bounds__(n)
#line 100
extern "C" __global__ void LB(256) le_ld1(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 110
s += a[j + 0*n];
#line 190
}
o[threadIdx.x] = s;
}
#line 200
extern "C" __global__ void LB(256) le_ld2(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 210
s += a[j + 0*n];
#line 211
s += a[j + 1*n];
#line 290
}
o[threadIdx.x] = s;
}
#line 300
extern "C" __global__ void LB(256) le_ld4(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 310
s += a[j + 0*n];
#line 311
s += a[j + 1*n];
#line 312
s += a[j + 2*n];
#line 313
s += a[j + 3*n];
#line 390
}
o[threadIdx.x] = s;
}
#line 400
extern "C" __global__ void LB(256) le_ld8(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 410
s += a[j + 0*n];
#line 411
s += a[j + 1*n];
#line 412
s += a[j + 2*n];
#line 413
s += a[j + 3*n];
#line 414
s += a[j + 4*n];
#line 415
s += a[j + 5*n];
#line 416
s += a[j + 6*n];
#line 417
s += a[j + 7*n];
#line 490
}
o[threadIdx.x] = s;
}
#line 500
extern "C" __global__ void LB(256) le_ldst(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 510
o[j] = a[j] * 2.f;
#line 590
}

}
#line 600
extern "C" __global__ void LB(256) le_ldst2(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 610
float v = a[j];
#line 611
o[j] = v;
#line 612
o[j + n] = v + b[j];
#line 690
}

}
#line 700
extern "C" __global__ void LB(256) le_st(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 710
o[j] = (float)j;
#line 790
}

}
#line 800
extern "C" __global__ void LB(256) le_shfl(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 810
float v = a[j];
#line 811
s += __shfl_xor_sync(0xffffffff, v, 1);
#line 890
}
o[threadIdx.x] = s;
}
#line 900
extern "C" __global__ void LB(256) le_atom(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 910
atomicAdd(o + (j & 255), a[j]);
#line 990
}

}
#line 1000
extern "C" __global__ void LB(256) le_red_used(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 1010
s += atomicAdd(o + (j & 255), a[j]);
#line 1090
}
o[threadIdx.x] = s;
}
#line 1100
extern "C" __global__ void LB(256) le_sync(const float* __restrict__ a, float* __restrict__ o, int n, int lo, int hi) {
__shared__ float t[256]; int lane = threadIdx.x; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 256) {
#line 1110
t[threadIdx.x] = a[j];
#line 1111
__syncthreads();
#line 1112
s += t[255 - threadIdx.x];
#line 1113
__syncthreads();
#line 1190
}
o[threadIdx.x] = s;
}
#line 1200
extern "C" __global__ void LB(256) le_shared(const float* __restrict__ a, float* __restrict__ o, int n, int lo, int hi) {
__shared__ float t[1024]; int lane = threadIdx.x & 31; float s = 0.f; t[threadIdx.x] = a[threadIdx.x]; __syncthreads();
for (int j = lo + lane; j <= hi; j += 32) {
#line 1210
s += t[j & 1023];
#line 1290
}
o[threadIdx.x] = s;
}
#line 1300
extern "C" __global__ void LB(256) le_alu4(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 1310
float v = a[j];
#line 1311
v = v * v + 0.f;
#line 1312
v = v * v + 1.f;
#line 1313
v = v * v + 2.f;
#line 1314
v = v * v + 3.f;
#line 1315
s += v;
#line 1390
}
o[threadIdx.x] = s;
}
#line 1400
extern "C" __global__ void LB(256) le_alu8(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 1410
float v = a[j];
#line 1411
v = v * v + 0.f;
#line 1412
v = v * v + 1.f;
#line 1413
v = v * v + 2.f;
#line 1414
v = v * v + 3.f;
#line 1415
v = v * v + 4.f;
#line 1416
v = v * v + 5.f;
#line 1417
v = v * v + 6.f;
#line 1418
v = v * v + 7.f;
#line 1419
s += v;
#line 1490
}
o[threadIdx.x] = s;
}
#line 1500
extern "C" __global__ void LB(256) le_alu16(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 1510
float v = a[j];
#line 1511
v = v * v + 0.f;
#line 1512
v = v * v + 1.f;
#line 1513
v = v * v + 2.f;
#line 1514
v = v * v + 3.f;
#line 1515
v = v * v + 4.f;
#line 1516
v = v * v + 5.f;
#line 1517
v = v * v + 6.f;
#line 1518
v = v * v + 7.f;
#line 1519
v = v * v + 8.f;
#line 1520
v = v * v + 9.f;
#line 1521
v = v * v + 10.f;
#line 1522
v = v * v + 11.f;
#line 1523
v = v * v + 12.f;
#line 1524
v = v * v + 13.f;
#line 1525
v = v * v + 14.f;
#line 1526
v = v * v + 15.f;
#line 1527
s += v;
#line 1590
}
o[threadIdx.x] = s;
}
#line 1600
extern "C" __global__ void LB(256) le_alu32(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 1610
float v = a[j];
#line 1611
v = v * v + 0.f;
#line 1612
v = v * v + 1.f;
#line 1613
v = v * v + 2.f;
#line 1614
v = v * v + 3.f;
#line 1615
v = v * v + 4.f;
#line 1616
v = v * v + 5.f;
#line 1617
v = v * v + 6.f;
#line 1618
v = v * v + 7.f;
#line 1619
v = v * v + 8.f;
#line 1620
v = v * v + 9.f;
#line 1621
v = v * v + 10.f;
#line 1622
v = v * v + 11.f;
#line 1623
v = v * v + 12.f;
#line 1624
v = v * v + 13.f;
#line 1625
v = v * v + 14.f;
#line 1626
v = v * v + 15.f;
#line 1627
v = v * v + 16.f;
#line 1628
v = v * v + 17.f;
#line 1629
v = v * v + 18.f;
#line 1630
v = v * v + 19.f;
#line 1631
v = v * v + 20.f;
#line 1632
v = v * v + 21.f;
#line 1633
v = v * v + 22.f;
#line 1634
v = v * v + 23.f;
#line 1635
v = v * v + 24.f;
#line 1636
v = v * v + 25.f;
#line 1637
v = v * v + 26.f;
#line 1638
v = v * v + 27.f;
#line 1639
v = v * v + 28.f;
#line 1640
v = v * v + 29.f;
#line 1641
v = v * v + 30.f;
#line 1642
v = v * v + 31.f;
#line 1643
s += v;
#line 1690
}
o[threadIdx.x] = s;
}
#line 1700
extern "C" __global__ void LB(256) le_alu64(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 1710
float v = a[j];
#line 1711
v = v * v + 0.f;
#line 1712
v = v * v + 1.f;
#line 1713
v = v * v + 2.f;
#line 1714
v = v * v + 3.f;
#line 1715
v = v * v + 4.f;
#line 1716
v = v * v + 5.f;
#line 1717
v = v * v + 6.f;
#line 1718
v = v * v + 7.f;
#line 1719
v = v * v + 8.f;
#line 1720
v = v * v + 9.f;
#line 1721
v = v * v + 10.f;
#line 1722
v = v * v + 11.f;
#line 1723
v = v * v + 12.f;
#line 1724
v = v * v + 13.f;
#line 1725
v = v * v + 14.f;
#line 1726
v = v * v + 15.f;
#line 1727
v = v * v + 16.f;
#line 1728
v = v * v + 17.f;
#line 1729
v = v * v + 18.f;
#line 1730
v = v * v + 19.f;
#line 1731
v = v * v + 20.f;
#line 1732
v = v * v + 21.f;
#line 1733
v = v * v + 22.f;
#line 1734
v = v * v + 23.f;
#line 1735
v = v * v + 24.f;
#line 1736
v = v * v + 25.f;
#line 1737
v = v * v + 26.f;
#line 1738
v = v * v + 27.f;
#line 1739
v = v * v + 28.f;
#line 1740
v = v * v + 29.f;
#line 1741
v = v * v + 30.f;
#line 1742
v = v * v + 31.f;
#line 1743
v = v * v + 32.f;
#line 1744
v = v * v + 33.f;
#line 1745
v = v * v + 34.f;
#line 1746
v = v * v + 35.f;
#line 1747
v = v * v + 36.f;
#line 1748
v = v * v + 37.f;
#line 1749
v = v * v + 38.f;
#line 1750
v = v * v + 39.f;
#line 1751
v = v * v + 40.f;
#line 1752
v = v * v + 41.f;
#line 1753
v = v * v + 42.f;
#line 1754
v = v * v + 43.f;
#line 1755
v = v * v + 44.f;
#line 1756
v = v * v + 45.f;
#line 1757
v = v * v + 46.f;
#line 1758
v = v * v + 47.f;
#line 1759
v = v * v + 48.f;
#line 1760
v = v * v + 49.f;
#line 1761
v = v * v + 50.f;
#line 1762
v = v * v + 51.f;
#line 1763
v = v * v + 52.f;
#line 1764
v = v * v + 53.f;
#line 1765
v = v * v + 54.f;
#line 1766
v = v * v + 55.f;
#line 1767
v = v * v + 56.f;
#line 1768
v = v * v + 57.f;
#line 1769
v = v * v + 58.f;
#line 1770
v = v * v + 59.f;
#line 1771
v = v * v + 60.f;
#line 1772
v = v * v + 61.f;
#line 1773
v = v * v + 62.f;
#line 1774
v = v * v + 63.f;
#line 1775
s += v;
#line 1790
}
o[threadIdx.x] = s;
}
#line 1800
extern "C" __global__ void LB(256) le_alu128(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 1810
float v = a[j];
#line 1811
v = v * v + 0.f;
#line 1812
v = v * v + 1.f;
#line 1813
v = v * v + 2.f;
#line 1814
v = v * v + 3.f;
#line 1815
v = v * v + 4.f;
#line 1816
v = v * v + 5.f;
#line 1817
v = v * v + 6.f;
#line 1818
v = v * v + 7.f;
#line 1819
v = v * v + 8.f;
#line 1820
v = v * v + 9.f;
#line 1821
v = v * v + 10.f;
#line 1822
v = v * v + 11.f;
#line 1823
v = v * v + 12.f;
#line 1824
v = v * v + 13.f;
#line 1825
v = v * v + 14.f;
#line 1826
v = v * v + 15.f;
#line 1827
v = v * v + 16.f;
#line 1828
v = v * v + 17.f;
#line 1829
v = v * v + 18.f;
#line 1830
v = v * v + 19.f;
#line 1831
v = v * v + 20.f;
#line 1832
v = v * v + 21.f;
#line 1833
v = v * v + 22.f;
#line 1834
v = v * v + 23.f;
#line 1835
v = v * v + 24.f;
#line 1836
v = v * v + 25.f;
#line 1837
v = v * v + 26.f;
#line 1838
v = v * v + 27.f;
#line 1839
v = v * v + 28.f;
#line 1840
v = v * v + 29.f;
#line 1841
v = v * v + 30.f;
#line 1842
v = v * v + 31.f;
#line 1843
v = v * v + 32.f;
#line 1844
v = v * v + 33.f;
#line 1845
v = v * v + 34.f;
#line 1846
v = v * v + 35.f;
#line 1847
v = v * v + 36.f;
#line 1848
v = v * v + 37.f;
#line 1849
v = v * v + 38.f;
#line 1850
v = v * v + 39.f;
#line 1851
v = v * v + 40.f;
#line 1852
v = v * v + 41.f;
#line 1853
v = v * v + 42.f;
#line 1854
v = v * v + 43.f;
#line 1855
v = v * v + 44.f;
#line 1856
v = v * v + 45.f;
#line 1857
v = v * v + 46.f;
#line 1858
v = v * v + 47.f;
#line 1859
v = v * v + 48.f;
#line 1860
v = v * v + 49.f;
#line 1861
v = v * v + 50.f;
#line 1862
v = v * v + 51.f;
#line 1863
v = v * v + 52.f;
#line 1864
v = v * v + 53.f;
#line 1865
v = v * v + 54.f;
#line 1866
v = v * v + 55.f;
#line 1867
v = v * v + 56.f;
#line 1868
v = v * v + 57.f;
#line 1869
v = v * v + 58.f;
#line 1870
v = v * v + 59.f;
#line 1871
v = v * v + 60.f;
#line 1872
v = v * v + 61.f;
#line 1873
v = v * v + 62.f;
#line 1874
v = v * v + 63.f;
#line 1875
v = v * v + 64.f;
#line 1876
v = v * v + 65.f;
#line 1877
v = v * v + 66.f;
#line 1878
v = v * v + 67.f;
#line 1879
v = v * v + 68.f;
#line 1880
v = v * v + 69.f;
#line 1881
v = v * v + 70.f;
#line 1882
v = v * v + 71.f;
#line 1883
v = v * v + 72.f;
#line 1884
v = v * v + 73.f;
#line 1885
v = v * v + 74.f;
#line 1886
v = v * v + 75.f;
#line 1887
v = v * v + 76.f;
#line 1888
v = v * v + 77.f;
#line 1889
v = v * v + 78.f;
#line 1890
v = v * v + 79.f;
#line 1891
v = v * v + 80.f;
#line 1892
v = v * v + 81.f;
#line 1893
v = v * v + 82.f;
#line 1894
v = v * v + 83.f;
#line 1895
v = v * v + 84.f;
#line 1896
v = v * v + 85.f;
#line 1897
v = v * v + 86.f;
#line 1898
v = v * v + 87.f;
#line 1899
v = v * v + 88.f;
#line 1900
v = v * v + 89.f;
#line 1901
v = v * v + 90.f;
#line 1902
v = v * v + 91.f;
#line 1903
v = v * v + 92.f;
#line 1904
v = v * v + 93.f;
#line 1905
v = v * v + 94.f;
#line 1906
v = v * v + 95.f;
#line 1907
v = v * v + 96.f;
#line 1908
v = v * v + 97.f;
#line 1909
v = v * v + 98.f;
#line 1910
v = v * v + 99.f;
#line 1911
v = v * v + 100.f;
#line 1912
v = v * v + 101.f;
#line 1913
v = v * v + 102.f;
#line 1914
v = v * v + 103.f;
#line 1915
v = v * v + 104.f;
#line 1916
v = v * v + 105.f;
#line 1917
v = v * v + 106.f;
#line 1918
v = v * v + 107.f;
#line 1919
v = v * v + 108.f;
#line 1920
v = v * v + 109.f;
#line 1921
v = v * v + 110.f;
#line 1922
v = v * v + 111.f;
#line 1923
v = v * v + 112.f;
#line 1924
v = v * v + 113.f;
#line 1925
v = v * v + 114.f;
#line 1926
v = v * v + 115.f;
#line 1927
v = v * v + 116.f;
#line 1928
v = v * v + 117.f;
#line 1929
v = v * v + 118.f;
#line 1930
v = v * v + 119.f;
#line 1931
v = v * v + 120.f;
#line 1932
v = v * v + 121.f;
#line 1933
v = v * v + 122.f;
#line 1934
v = v * v + 123.f;
#line 1935
v = v * v + 124.f;
#line 1936
v = v * v + 125.f;
#line 1937
v = v * v + 126.f;
#line 1938
v = v * v + 127.f;
#line 1939
s += v;
#line 1890
}
o[threadIdx.x] = s;
}
#line 1900
extern "C" __global__ void LB(256) le_div(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 1910
s += a[j] / b[j];
#line 1990
}
o[threadIdx.x] = s;
}
#line 2000
extern "C" __global__ void LB(256) le_idiv(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 2010
s += a[j / n];
#line 2090
}
o[threadIdx.x] = s;
}
#line 2100
extern "C" __global__ void LB(256) le_nounroll(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
#pragma unroll 1
for (int j = lo + lane; j <= hi; j += 32) {
#line 2110
s += a[j];
#line 2190
}
o[threadIdx.x] = s;
}
#line 2200
extern "C" __global__ void LB(256) le_64(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, long lo, long hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (long j = lo + lane; j <= hi; j += 32) {
#line 2210
s += a[j];
#line 2290
}
o[threadIdx.x] = s;
}
#line 2300
extern "C" __global__ void LB(256) le_u32(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, unsigned lo, unsigned hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (unsigned j = lo + lane; j <= hi; j += 32) {
#line 2310
s += a[j];
#line 2390
}
o[threadIdx.x] = s;
}
#line 2400
extern "C" __global__ void LB(256) c1000(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lane; j < 1000; j += 32) {
#line 2410
s += a[j];
#line 2490
}
o[threadIdx.x] = s;
}
#line 2500
extern "C" __global__ void LB(256) c1000_4(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lane; j < 1000; j += 32) {
#line 2510
s += a[j] + a[j+n] + a[j+2*n] + a[j+3*n];
#line 2590
}
o[threadIdx.x] = s;
}
#line 2600
extern "C" __global__ void LB(256) c250(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lane; j < 250; j += 32) {
#line 2610
s += a[j];
#line 2690
}
o[threadIdx.x] = s;
}
#line 2700
extern "C" __global__ void LB(256) c1000_t128(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x; float s = 0.f;
for (int j = lane; j < 1000; j += 128) {
#line 2710
s += a[j];
#line 2790
}
o[threadIdx.x] = s;
}
#line 2800
extern "C" __global__ void LB(256) mul2_lt(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lane; j * 2 < n; j += 64) {
#line 2810
s += a[j];
#line 2890
}
o[threadIdx.x] = s;
}
#line 2900
extern "C" __global__ void LB(256) lt_ld1(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lane; j < n; j += 32) {
#line 2910
s += a[j + 0*lo];
#line 2990
}
o[threadIdx.x] = s;
}
#line 3000
extern "C" __global__ void LB(256) lt_ld2(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lane; j < n; j += 32) {
#line 3010
s += a[j + 0*lo];
#line 3011
s += a[j + 1*lo];
#line 3090
}
o[threadIdx.x] = s;
}
#line 3100
extern "C" __global__ void LB(256) lt_ld4(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lane; j < n; j += 32) {
#line 3110
s += a[j + 0*lo];
#line 3111
s += a[j + 1*lo];
#line 3112
s += a[j + 2*lo];
#line 3113
s += a[j + 3*lo];
#line 3190
}
o[threadIdx.x] = s;
}
#line 3200
extern "C" __global__ void LB(256) lt_f4(const float4* __restrict__ a, float* __restrict__ o, int n) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lane; j < n; j += 32) {
#line 3210
float4 v = a[j];
#line 3211
s += v.x + v.y + v.z + v.w;
#line 3290
}
o[threadIdx.x] = s;
}
#line 3300
extern "C" __global__ void LB(256) lt_copy(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lane; j < n; j += 32) {
#line 3310
o[j] = a[j];
#line 3390
}

}
#line 3400
extern "C" __global__ void LB(256) lt_copy_base(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; const size_t base = (size_t)blockIdx.x * n;
for (int j = lane; j < n; j += 32) {
#line 3410
o[base + j] = a[base + j];
#line 3490
}

}
#line 3500
extern "C" __global__ void LB(256) lt_copy_base128(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x; const size_t base = (size_t)blockIdx.x * n;
for (int j = lane; j < n; j += 128) {
#line 3510
o[base + j] = a[base + j];
#line 3590
}

}
#line 3600
extern "C" __global__ void LB(256) lt_sum_base128(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x; float s=0.f; const size_t base = (size_t)blockIdx.x * n;
for (int j = lane; j < n; j += 128) {
#line 3610
s += a[base + j];
#line 3690
}
o[threadIdx.x] = s;
}
#line 3700
extern "C" __global__ void LB(256) lt_t128(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x; float s = 0.f;
for (int j = lane; j < n; j += 128) {
#line 3710
s += a[j];
#line 3790
}
o[threadIdx.x] = s;
}
#line 3800
extern "C" __global__ void LB(256) lt_bdim(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x; float s = 0.f;
for (int j = lane; j < n; j += blockDim.x) {
#line 3810
s += a[j];
#line 3890
}
o[threadIdx.x] = s;
}
#line 3900
extern "C" __global__ void LB(256) lt_grid(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
float s = 0.f;
for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += blockDim.x * gridDim.x) {
#line 3910
s += a[j];
#line 3990
}
o[threadIdx.x] = s;
}
#line 4000
extern "C" __global__ void LB(256) lt_64(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, long n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (long j = lane; j < n; j += 32) {
#line 4010
s += a[j];
#line 4090
}
o[threadIdx.x] = s;
}
#line 4100
extern "C" __global__ void LB(256) lt_alu8(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lane; j < n; j += 32) {
#line 4110
float v = a[j];
#line 4111
v = v * v + 0.f;
#line 4112
v = v * v + 1.f;
#line 4113
v = v * v + 2.f;
#line 4114
v = v * v + 3.f;
#line 4115
v = v * v + 4.f;
#line 4116
v = v * v + 5.f;
#line 4117
v = v * v + 6.f;
#line 4118
v = v * v + 7.f;
#line 4119
s += v;
#line 4190
}
o[threadIdx.x] = s;
}
#line 4200
extern "C" __global__ void LB(256) lt_alu16(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lane; j < n; j += 32) {
#line 4210
float v = a[j];
#line 4211
v = v * v + 0.f;
#line 4212
v = v * v + 1.f;
#line 4213
v = v * v + 2.f;
#line 4214
v = v * v + 3.f;
#line 4215
v = v * v + 4.f;
#line 4216
v = v * v + 5.f;
#line 4217
v = v * v + 6.f;
#line 4218
v = v * v + 7.f;
#line 4219
v = v * v + 8.f;
#line 4220
v = v * v + 9.f;
#line 4221
v = v * v + 10.f;
#line 4222
v = v * v + 11.f;
#line 4223
v = v * v + 12.f;
#line 4224
v = v * v + 13.f;
#line 4225
v = v * v + 14.f;
#line 4226
v = v * v + 15.f;
#line 4227
s += v;
#line 4290
}
o[threadIdx.x] = s;
}
#line 4300
extern "C" __global__ void LB(256) lt_alu32(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lane; j < n; j += 32) {
#line 4310
float v = a[j];
#line 4311
v = v * v + 0.f;
#line 4312
v = v * v + 1.f;
#line 4313
v = v * v + 2.f;
#line 4314
v = v * v + 3.f;
#line 4315
v = v * v + 4.f;
#line 4316
v = v * v + 5.f;
#line 4317
v = v * v + 6.f;
#line 4318
v = v * v + 7.f;
#line 4319
v = v * v + 8.f;
#line 4320
v = v * v + 9.f;
#line 4321
v = v * v + 10.f;
#line 4322
v = v * v + 11.f;
#line 4323
v = v * v + 12.f;
#line 4324
v = v * v + 13.f;
#line 4325
v = v * v + 14.f;
#line 4326
v = v * v + 15.f;
#line 4327
v = v * v + 16.f;
#line 4328
v = v * v + 17.f;
#line 4329
v = v * v + 18.f;
#line 4330
v = v * v + 19.f;
#line 4331
v = v * v + 20.f;
#line 4332
v = v * v + 21.f;
#line 4333
v = v * v + 22.f;
#line 4334
v = v * v + 23.f;
#line 4335
v = v * v + 24.f;
#line 4336
v = v * v + 25.f;
#line 4337
v = v * v + 26.f;
#line 4338
v = v * v + 27.f;
#line 4339
v = v * v + 28.f;
#line 4340
v = v * v + 29.f;
#line 4341
v = v * v + 30.f;
#line 4342
v = v * v + 31.f;
#line 4343
s += v;
#line 4390
}
o[threadIdx.x] = s;
}
#line 4400
extern "C" __global__ void LB(256) lt_nounroll(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
#pragma unroll 1
for (int j = lane; j < n; j += 32) {
#line 4410
s += a[j];
#line 4490
}
o[threadIdx.x] = s;
}
#line 4500
extern "C" __global__ void LB(256) lt_shfl(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lane; j < n; j += 32) {
#line 4510
float v = a[j];
#line 4511
s += __shfl_xor_sync(0xffffffff, v, 1);
#line 4590
}
o[threadIdx.x] = s;
}
#line 4600
extern "C" __global__ void LB(256) lt_shared(const float* __restrict__ a, float* __restrict__ o, int n, int lo, int hi) {
__shared__ float t[1024]; int lane = threadIdx.x & 31; float s = 0.f; t[threadIdx.x] = a[threadIdx.x]; __syncthreads();
for (int j = lane; j < n; j += 32) {
#line 4610
s += t[j & 1023];
#line 4690
}
o[threadIdx.x] = s;
}
#line 4700
extern "C" __global__ void LB(256) lt_zsh1(float* o, int n) {
__shared__ float sg[4][1024]; __shared__ float sb[4][1024]; int tx = threadIdx.x, ty = threadIdx.y;
for (int c = tx; c < n; c += 32) {
#line 4710
sg[ty][c] = 0.f;
#line 4790
}
__syncthreads(); o[threadIdx.x] = sg[ty][tx + 1] + sb[ty][tx + 2];
}
#line 4800
extern "C" __global__ void LB(256) lt_zsh2(float* o, int n) {
__shared__ float sg[4][1024]; __shared__ float sb[4][1024]; int tx = threadIdx.x, ty = threadIdx.y;
for (int c = tx; c < n; c += 32) {
#line 4810
sg[ty][c] = 0.f;
#line 4811
sb[ty][c] = 0.f;
#line 4890
}
__syncthreads(); o[threadIdx.x] = sg[ty][tx + 1] + sb[ty][tx + 2];
}
#line 4900
extern "C" __global__ void LB(256) lt_zg2(float* o, float* q, int n) {
int tx = threadIdx.x;
for (int c = tx; c < n; c += 32) {
#line 4910
o[c] = 0.f;
#line 4911
q[c] = 0.f;
#line 4990
}

}
#line 5000
extern "C" __global__ void LB(256) lt_vg2(float* o, float* q, int n) {
int tx = threadIdx.x;
for (int c = tx; c < n; c += 32) {
#line 5010
o[c] = (float)c;
#line 5011
q[c] = (float)tx;
#line 5090
}

}
#line 5100
extern "C" __global__ void LB(256) lt_sh2ld(const float* __restrict__ a, float* o, int n) {
__shared__ float sg[4][1024]; __shared__ float sb[4][1024]; int tx = threadIdx.x, ty = threadIdx.y;
for (int c = tx; c < n; c += 32) {
#line 5110
sg[ty][c] = a[c];
#line 5111
sb[ty][c] = 1.f;
#line 5190
}
__syncthreads(); o[threadIdx.x] = sg[ty][tx + 1] + sb[ty][tx + 2];
}
#line 5200
extern "C" __global__ void LB(256) le_break(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ o, int n, int lo, int hi) {
int lane = threadIdx.x & 31; float s = 0.f;
for (int j = lo + lane; j <= hi; j += 32) {
#line 5210
float v = a[j];
#line 5211
if (v > 1.f) break;
#line 5212
s += v;
#line 5290
}
o[threadIdx.x] = s;
}
