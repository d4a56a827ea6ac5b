"""count.py PTX SASS: per kernel, the memory instructions of each body
statement in the PTX and in the SASS (`j:PTX->SASS`), and how many
`.pragma "nounroll"` the kernel's PTX holds."""
import re,sys,collections
ptx=open(sys.argv[1]).read(); sass=open(sys.argv[2]).read()
# PTX: per entry, per loc line, count of ld/st/atom/red/cp.async mem ops
pc=collections.defaultdict(collections.Counter); pragma=collections.defaultdict(int)
cur=None; line=None
for L in ptx.splitlines():
    m=re.match(r'\.visible \.entry (\w+)\(',L)
    if m: cur=m.group(1); continue
    m=re.match(r'\s*\.loc\s+\d+\s+(\d+)',L)
    if m: line=int(m.group(1)); continue
    if cur and re.match(r'\s*(@%p\d+\s+)?(ld\.(global|shared|f32|u32)|st\.|atom|red|ld\.global)',L) and 'ld.param' not in L:
        pc[cur][line]+=1
    if cur and 'nounroll' in L: pragma[cur]+=1
sc=collections.defaultdict(collections.Counter)
cur=None; line=None
for L in sass.splitlines():
    m=re.search(r'\.text\.(\w+)',L)
    if m and 'section' in L: cur=m.group(1); continue
    m=re.search(r'//## File ".*", line (\d+)',L)
    if m: line=int(m.group(1)); continue
    if cur and re.search(r'\b(LDG|STG|LDS|STS|ATOMG|REDG|ATOMS|LD|ST|RED|ATOM)\b(\.|\s)',L):
        sc[cur][line]+=1
for k in pc:
    rows=[]
    for ln in sorted(set(pc[k])|set(sc[k])):
        if ln is None: continue
        base=ln - ln%100
        if ln%100<10 or ln%100>=90: continue
        rows.append(f"{ln%100-10}:{pc[k][ln]}->{sc[k][ln]}")
    print(f"{k:18s} nounroll={pragma[k]} "+"  ".join(rows))
