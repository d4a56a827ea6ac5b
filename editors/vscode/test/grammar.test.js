// Tokenizes PTX with the extension's TextMate grammar through the same
// engine VS Code uses (vscode-textmate + the Oniguruma regex library), and
// checks the scopes of the constructs that matter. A pattern Oniguruma
// rejects (a variable-length look-behind, say) fails here, as it would fail
// silently in the editor.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const root = path.join(__dirname, '..');
const wasm = fs.readFileSync(path.join(root, 'node_modules/vscode-oniguruma/release/onig.wasm')).buffer;
const onigLib = oniguruma.loadWASM(wasm).then(() => ({
  createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
  createOnigString: (s) => new oniguruma.OnigString(s),
}));
const registry = new vsctm.Registry({
  onigLib,
  loadGrammar: async (scope) => {
    if (scope !== 'source.ptx') return null;
    const p = path.join(root, 'syntaxes/ptx.tmLanguage.json');
    return vsctm.parseRawGrammar(fs.readFileSync(p, 'utf8'), p);
  },
});

async function tokens(lines) {
  const grammar = await registry.loadGrammar('source.ptx');
  let state = vsctm.INITIAL;
  const out = [];
  for (const line of lines) {
    const r = grammar.tokenizeLine(line, state);
    for (const t of r.tokens) {
      out.push({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes });
    }
    state = r.ruleStack;
  }
  return out;
}

function scopeOf(toks, text, nth = 0) {
  const t = toks.filter((t) => t.text === text)[nth];
  assert.ok(t, `no token ${JSON.stringify(text)} in ${JSON.stringify(toks.map((t) => t.text))}`);
  return t.scopes[t.scopes.length - 1];
}

test('instructions, guards, registers, labels and directives', async () => {
  const toks = await tokens([
    '.visible .entry _Z6stridePfS_i(',
    '\t.param .u64 _Z6stridePfS_i_param_0',
    ')',
    '{',
    '\t.reg .b64 \t%rd<9>;',
    '\t@%p1 bra \t$L__BB0_2;',
    '\tld.global.nc.v4.f32 \t{%f1, %f2, %f3, %f4}, [%rd5+16]; // load',
    '\tmov.u32 \t%r5, %tid.x;',
    '$L__BB0_2:',
    '\tmov.b32 %f9, 0f3F800000; /* one */',
    '}',
  ]);
  assert.strictEqual(scopeOf(toks, '.entry'), 'storage.type.function.ptx');
  assert.strictEqual(scopeOf(toks, '_Z6stridePfS_i'), 'entity.name.function.ptx');
  assert.strictEqual(scopeOf(toks, '.param'), 'storage.type.space.ptx');
  assert.strictEqual(scopeOf(toks, '.u64'), 'storage.type.ptx');
  assert.strictEqual(scopeOf(toks, '%rd<9>'), 'variable.other.register.ptx');
  assert.strictEqual(scopeOf(toks, '@'), 'keyword.operator.predicate.ptx');
  assert.strictEqual(scopeOf(toks, '%p1'), 'variable.other.predicate.ptx');
  assert.strictEqual(scopeOf(toks, 'bra'), 'keyword.other.opcode.ptx');
  assert.strictEqual(scopeOf(toks, 'ld'), 'keyword.other.opcode.ptx');
  assert.strictEqual(scopeOf(toks, '.global.nc.v4.f32'), 'support.type.modifier.ptx');
  assert.strictEqual(scopeOf(toks, '%tid.x'), 'variable.language.special-register.ptx');
  assert.strictEqual(scopeOf(toks, '$L__BB0_2', 1), 'entity.name.label.ptx');
  assert.strictEqual(scopeOf(toks, '0f3F800000'), 'constant.numeric.float.ptx');
  assert.strictEqual(scopeOf(toks, '16'), 'constant.numeric.integer.ptx');
  assert.strictEqual(scopeOf(toks, '// load'), 'comment.line.double-slash.ptx');
  assert.ok(toks.find((t) => t.text.includes('one')).scopes.includes('comment.block.ptx'));
});
