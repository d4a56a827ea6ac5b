"""survey.py DIR...: for the held-out batches' CUDA kernels (DIR: tests/hw/blindN,
with blindN.ptx and raw/sass.tgz, the measured build's SASS), every source line
whose PTX holds 5k memory instructions in a kernel with a `nounroll` loop (NVVM's
remainder copy and its 4-copy body) and its SASS count: 5k when ptxas left the
body, 29k when it unrolled it again. Prints `batch kernel size N nounroll M
line:PTX->SASS ...`."""
import re,sys,collections,glob,tarfile,io
def ptx_info(ptx):
    pc=collections.defaultdict(collections.Counter); size=collections.Counter(); nloops=collections.Counter(); nounr=collections.Counter()
    cur=None; line=None
    for L in ptx.splitlines():
        m=re.match(r'\.(visible|weak) \.entry (\w+)\(',L) or re.match(r'\.visible \.entry (\w+)\(',L)
        m=re.search(r'\.entry (\w+)\(',L)
        if m: cur=m.group(1); continue
        m=re.match(r'\s*\.loc\s+1\s+(\d+)',L)
        if m: line=int(m.group(1)); continue
        if re.match(r'\s*\.loc',L): line=None; continue
        s=L.strip()
        if cur and s and not s.startswith(('.','//','$','{','}',')')):
            size[cur]+=1
        if cur and 'nounroll' in L: nounr[cur]+=1
        if cur and line and re.match(r'\s*(@!?%p\d+\s+)?(ld\.(global|shared)|st\.(global|shared)|cp\.async\.c)',L):
            pc[cur][line]+=1
    return pc,size,nounr
def sass_info(sass):
    sc=collections.defaultdict(collections.Counter); cur=None; line=None
    for L in sass.splitlines():
        m=re.search(r'\.text\.(\w+):',L)
        if m: cur=m.group(1); continue
        m=re.search(r'//## File "([^"]*)", line (\d+)',L)
        if m: line=int(m.group(2)) if not m.group(1).endswith(('.h','.hpp','.cuh')) else None; continue
        if cur and line and re.search(r'\b(LDG|STG|LDS|STS|LDGSTS)\b',L): sc[cur][line]+=1
    return sc
for d in sys.argv[1:]:
    ptx=open(glob.glob(d+'/blind*.ptx')[0]).read()
    t=tarfile.open(d+'/raw/sass.tgz')
    name=[n for n in t.getnames() if n.endswith('.nvdisasm.sass') and 'triton' not in n][0]
    sass=t.extractfile(name).read().decode()
    pc,size,nounr=ptx_info(ptx); sc=sass_info(sass)
    for k in pc:
        if not nounr[k]: continue
        rows=[f"{ln}:{pc[k][ln]}->{sc[k][ln]}" for ln in sorted(pc[k]) if pc[k][ln]>=5 and pc[k][ln]%5==0]
        if rows: print(d.split('/')[-1], k, 'size',size[k],'nounroll',nounr[k],' '.join(rows))
