#!/usr/bin/env python3
"""The LDGSTS counting rules found with the second cp.async probe, in Python
(the reference for cost::async_copy; no GPU):
    python3 tests/hw/probe2/rules.py configs_heldout.txt > heldout_predicted.txt
    python3 tests/hw/probe2/rules.py --check results/probe2_measured.txt.gz
Per configuration: shared wavefronts, L2 sectors, L1 lines of one request.
"""
import sys
from collections import defaultdict
def half(a): return (a//16)%2
def dedupe(src,exec_,dst,keep='last'):
    seen={}
    order=range(32) if keep=='first' else range(31,-1,-1)
    m=0
    for l in order:
        if exec_>>l&1 and dst[l] not in seen:
            seen[dst[l]]=l; m|=1<<l
    return m
def pair_up(src,on,dst):
    groups=defaultdict(list)
    for l in range(32):
        if on>>l&1: groups[(src[l]//32,dst[l]//32)].append(l)
    paired={}
    for k,m in groups.items():
        if len(m)!=2: continue
        a,b=m
        if half(src[a])!=half(src[b]) and half(dst[a])!=half(dst[b]):
            paired[a]=b; paired[b]=a
    return paired
def cost(src,exec_,dst,keep='last',pairshift=True,mod=64):
    on=dedupe(src,exec_,dst,keep)
    lanes=[l for l in range(32) if on>>l&1]
    if not lanes: return 0
    paired=pair_up(src,on,dst)
    cl=defaultdict(list)
    for l in lanes:
        line,row=src[l]//128,dst[l]//128
        if l in paired:
            if paired[l]<l: continue   # one entry per pair, at its lower lane
            sw=half(src[l])!=half(dst[l])
            sh=((dst[l]//32)*32-(src[l]//32)*32)%mod if pairshift else 0
            cl[(line,row,'p',sh,sw)].append(l)
        else:
            cl[(line,row,(dst[l]-src[l])%mod,half(src[l]),half(dst[l]))].append(l)
    tot=0
    for c,ls in cl.items():
        g=32 if c[2]=='p' else 16
        ms=defaultdict(int); md=defaultdict(int)
        for l in ls: ms[src[l]//g]+=1; md[dst[l]//g]+=1
        tot+=max(max(ms.values()),max(md.values()))
    return tot
def sectors_lines(src,reading,dst,exec_=None,bytes_=16):
    exec_=reading if exec_ is None else exec_
    lines=len({src[l]//128 for l in range(32) if reading>>l&1})
    if bytes_<16:
        sec=len({(src[l]+k)//32 for l in range(32) if reading>>l&1 for k in (0,bytes_-1)})
        return sec,lines
    on=dedupe(src,exec_,dst,'first')&reading
    paired=pair_up(src,on,dst)
    sec=len(paired)//2+sum(1 for l in range(32) if on>>l&1 and l not in paired)
    return sec,lines
def unshared(addrs,active,bytes_,group=None):
    group = group or (32 if bytes_<=4 else 128//bytes_)
    words=(bytes_+3)//4; tot=0
    for g in range(0,32,group):
        pb=[0]*32; anyl=False
        for l in range(g,min(g+group,32)):
            if not active>>l&1: continue
            anyl=True
            for k in range(words): pb[(addrs[l]//4+k)%32]+=1
        if anyl: tot+=max(pb)
    return tot
def predict(v, src, dst, flag):
    on=sum(1<<l for l in range(32) if src[l]>=0)
    if v=='zf16': reading=sum(1<<l for l in range(32) if on>>l&1 and flag[l]>0)
    elif v=='ig16': reading=sum(1<<l for l in range(32) if on>>l&1 and flag[l]==0)
    else: reading=on
    b={'ca4':4,'ca8':8}.get(v,16)
    lines=len({src[l]//128 for l in range(32) if reading>>l&1})
    if v in ('ca4','ca8','ca16'):
        sec=len({(src[l]+k)//32 for l in range(32) if reading>>l&1 for k in (0,b-1)})
        g=32 if b<=4 else 128//b
        wf=max(unshared(src,on,b,g),unshared(dst,on,b,g))
        return wf,sec,lines
    wf=cost(src,on,dst,keep='first')
    if v=='zf16': wf+=max(unshared(src,on,16),unshared(dst,on,16))
    # sectors: the reading lanes, one per destination (the first)
    r2=dedupe(src,reading,dst,'first')
    paired=pair_up(src,r2,dst)
    sec=len(paired)//2+sum(1 for l in range(32) if r2>>l&1 and l not in paired)
    return wf,sec,lines
if __name__ == "__main__":
    if sys.argv[1] == "--check":
        bad = 0
        n = 0
        import gzip
        op = gzip.open if sys.argv[2].endswith(".gz") else open
        for line in op(sys.argv[2], "rt"):
            if line.startswith("#"):
                continue
            w = line.split()
            v = list(map(int, w[8:]))
            got = predict(w[0], v[:32], v[32:64], v[64:96])
            meas = (int(w[4]), int(w[5]), int(w[6]))
            n += 1
            if got != meas:
                bad += 1
                print(w[0], w[1], "measured", *meas, "rules", *got)
        print(f"# {n - bad} of {n} configurations match")
        sys.exit(0)
    print("# predictions of tests/hw/probe2/rules.py (written before the confirmation run): variant name wavefronts sectors lines")
    for line in open(sys.argv[1]):
        w = line.split()
        n = list(map(int, w[2:]))
        print(w[0], w[1], *predict(w[0], n[:32], n[32:64], n[64:96]))
