#!/usr/bin/env python3
"""Survey a PTX corpus for syntax a parser may trip on (slow: ~13 min for the 865 MB corpus).

usage: python3 scripts/corpus_survey.py .corpus/libs > survey.txt
prints .version/.target/.pragma/directive counts, lines over 20,000 chars, identifiers
containing `$`, modules without functions, odd operand forms, opcode counts, rare opcodes.
"""
import os, re, sys, collections
root = sys.argv[1]
files = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith('.ptx'))
targets = collections.Counter(); versions = collections.Counter()
opcodes = collections.Counter(); opcode_ex = {}
directives = collections.Counter()
pragmas = collections.Counter()
longest = []
ident_dollar = collections.Counter(); ident_ex = {}
weird = collections.defaultdict(list)
loc_forms = collections.Counter()
nfunc_empty = []
pat_ident = re.compile(r'(?<![%\w$.])([A-Za-z_$][\w$]*\$[\w$]*)')
for fn in files:
    short = os.path.relpath(fn, root)
    with open(fn, 'rb') as fh:
        data = fh.read()
    if b'\x00' in data: weird['nul byte'].append(short)
    try:
        text = data.decode('ascii')
    except UnicodeDecodeError:
        weird['non-ascii'].append(short); text = data.decode('latin-1')
    if '\r' in text: weird['CR'].append(short)
    if '.entry' not in text and '.func' not in text: nfunc_empty.append((short, len(data)))
    for line in text.split('\n'):
        L = len(line)
        if L > 20000: longest.append((L, short, line[:160]))
        s = line.strip()
        if not s or s.startswith('//'): continue
        if s.startswith('.target'): targets[s] += 1
        if s.startswith('.version'): versions[s] += 1
        if s.startswith('.pragma'): pragmas[s] += 1
        if s.startswith(('.loc\t', '.loc ')):
            loc_forms[re.sub(r'\d+', 'N', s.split('//')[0].strip())[:90]] += 1
        m = re.match(r'^(?:@!?%?[\w$]+\s+)?([a-z_][\w:.]*)', s)
        if s.startswith('.'):
            directives[s.split()[0].rstrip(';')] += 1
        elif m and not s.endswith(':'):
            op = m.group(1)
            base = op.split('.')[0]
            opcodes[op] += 1
            if op not in opcode_ex: opcode_ex[op] = (short, s[:200])
        for idm in pat_ident.finditer(s):
            i = idm.group(1)
            if i.startswith('$L__'): continue
            k = re.sub(r'\d+', 'N', i)
            ident_dollar[k] += 1
            ident_ex.setdefault(k, (short, s[:160]))
        if '+-' in s: weird['[x+-imm]'].append(short) if len(weird['[x+-imm]']) < 3 else None
        if re.search(r',\s*_\s*[,}]|\{\s*_\s*,', s): weird['sink _'].append((short, s[:150])) if len(weird['sink _']) < 3 else None
        if '|' in s and not s.startswith('.'): weird['pipe |'].append((short, s[:150])) if len(weird['pipe |']) < 3 else None
        if re.search(r'\b0[fFdD][0-9A-Fa-f]{8}', s) and len(weird['hexfloat']) < 1: weird['hexfloat'].append((short, s[:120]))
        if re.search(r'[\s,]-%', s) and len(weird['neg reg operand']) < 3: weird['neg reg operand'].append((short, s[:150]))
        if re.search(r'%\w+\.(x|y|z|w|h0|h1|b0|b1|b2|b3)\b', s) and not re.search(r'%(tid|ntid|ctaid|nctaid|clusterid|nclusterid|cluster_ctaid|cluster_nctaid)\.', s) and len(weird['reg component .x/.h0']) < 3: weird['reg component .x/.h0'].append((short, s[:150]))
        if re.search(r'\d[Uu]\b', s) and len(weird['U suffix']) < 3: weird['U suffix'].append((short, s[:150]))
        if '::' in s and len(weird['::']) < 2: weird['::'].append((short, s[:150]))
        if re.search(r'\[[^\]]*\]\s*,\s*\[', s) and len(weird['multi-bracket']) < 3: weird['multi-bracket'].append((short, s[:150]))
        if re.search(r'\bgeneric\(', s) and len(weird['generic(']) < 3: weird['generic('].append((short, s[:150]))
        if s.count(';') > 1 and len(weird['multiple stmts per line']) < 3: weird['multiple stmts per line'].append((short, s[:150]))
        if re.search(r'\bcall', s) and len(weird['call']) < 4: weird['call'].append((short, s[:200]))
print("files", len(files))
print("\n== versions"); [print(c, v) for v, c in versions.most_common()]
print("\n== targets"); [print(c, v) for v, c in targets.most_common()]
print("\n== pragmas"); [print(c, v) for v, c in pragmas.most_common(20)]
print("\n== directives"); [print(c, v) for v, c in directives.most_common(60)]
print("\n== loc forms"); [print(c, v) for v, c in loc_forms.most_common(10)]
print("\n== longest lines (>20000)", len(longest)); 
for L, f, l in sorted(longest, reverse=True)[:10]: print(L, f, l)
print("\n== identifiers with $"); [print(c, v, ident_ex[v]) for v, c in ident_dollar.most_common(30)]
print("\n== module-only files (no .entry/.func)", len(nfunc_empty), nfunc_empty[:5])
print("\n== weird"); 
for k, v in weird.items(): print(k, len(v), v[:3])
print("\n== opcode base count", len({o.split('.')[0] for o in opcodes}))
bases = collections.Counter()
for o, c in opcodes.items(): bases[o.split('.')[0]] += c
print(" ".join(f"{b}:{c}" for b, c in bases.most_common()))
print("\n== rare full opcodes (count<=3)")
for o, c in sorted(opcodes.items(), key=lambda x: x[1])[:80]:
    print(c, o, opcode_ex[o])
print("\n== longest opcode strings")
for o in sorted(opcodes, key=len, reverse=True)[:15]: print(len(o), o, opcode_ex[o][0])
