"""loops.py PTX: per kernel, each loop of the PTX (a label and a branch
back to it): PTX instructions (n), memory instructions (mem), 64-bit
instructions (64b), branches or labels inside (inner), NOUNROLL when
nvcc marked it `.pragma "nounroll"`."""
import re,sys
ptx=open(sys.argv[1]).read()
ents=re.split(r'\.visible \.entry ',ptx)[1:]
for e in ents:
    name=e.split('(')[0]
    lines=[l.strip() for l in e.splitlines()]
    ins=[l for l in lines if l and not l.startswith('.loc') and not l.startswith('//') and not l.startswith('.reg') and not l.startswith('.param') and not l.startswith('.maxntid') and l not in('{','}',')')]
    labels={}
    for i,l in enumerate(ins):
        if re.match(r'\$L\w+:',l): labels[l[:-1]]=i
    out=[]
    for i,l in enumerate(ins):
        m=re.search(r'bra(\.uni)?\s+(\$L\w+);',l)
        if m and m.group(2) in labels and labels[m.group(2)]<i:
            body=ins[labels[m.group(2)]+1:i+1]
            nb=[b for b in body if not b.startswith('.pragma')]
            mem=sum(1 for b in nb if re.match(r'(@%p\d+\s+)?(ld|st|atom|red|cp)\.',b) and 'ld.param' not in b)
            nounr=any('nounroll' in b for b in body)
            inner=sum(1 for b in nb[:-1] if 'bra' in b or b.startswith('$L'))
            ops=collections=None
            kinds=set(b.split()[0] if not b.startswith('@') else b.split()[1] for b in nb)
            w64=sum(1 for b in nb if re.search(r'\.(s64|u64|b64)\b',b.split()[0] if not b.startswith('@') else b.split()[1]))
            out.append(f"[n={len(nb)} mem={mem} 64b={w64} inner={inner}{' NOUNROLL' if nounr else ''}]")
    print(f"{name:18s}", " ".join(out))
