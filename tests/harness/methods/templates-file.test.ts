// --templates FILE: keys are the templates the registered methods declare, each with its own slots. The built `bench`
// binary (npm run build) refuses an unknown {slot} or template name with one line naming the file, the template and
// the slot, before it touches the run directory; a valid file changes exactly the prompts it names.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { methods } from '../../../harness/methods/index.js';
import {
  FULL_CONTEXT_BOXED_UPSTREAM,
  MEMAGENT_FINAL_BOXED,
  MEMAGENT_UPDATE,
  fillTemplate,
  readTemplatesFile,
  slotsOf,
} from '../../../harness/methods/templates.js';
import { assertOneLine, runBench } from '../../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'bench-templates-'));

function file(name: string, content: unknown): string {
  const path = join(root, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const run = (templates: string, out: string, method = 'memagent') =>
  runBench([
    'run',
    'ruler-hqa',
    '--lengths',
    '8k',
    '--samples',
    '1',
    '--method',
    method,
    '--templates',
    templates,
    '--no-progress',
    '--out',
    out,
  ]);

test('bench run refuses a template with an unknown {slot}: one line naming file, template, slot and the known slots', async () => {
  const bad = file('unknown-slot.json', {
    final: 'Q: {question}\nMemory: {memory}\nAnswer in {language}.\nTherefore, the answer is',
  });
  const out = join(root, 'refused-slot');
  const r = await run(bad, out);
  assertOneLine(
    r,
    2,
    new RegExp(
      `^bench: --templates ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: template "final" uses unknown slot \\{language\\} \\(its slots: \\{question\\}, \\{memory\\}\\)$`,
    ),
  );
  assert.ok(!existsSync(out), 'nothing was written');
});

test('bench run refuses an unknown template name, listing the known ones', async () => {
  const bad = file('unknown-name.json', { summary: 'Summarise {context}' });
  const r = await run(bad, join(root, 'refused-name'), 'full-context');
  assertOneLine(
    r,
    2,
    /--templates .*unknown-name\.json: unknown template "summary" \(known templates: update, final, fullContext, infmemPlanner, .*, compressZh\)$/,
  );
});

test('a valid --templates file reaches the prompts it names and leaves the others byte for byte', async () => {
  const good = file('good.json', { final: 'Q: {question}\nMemory: {memory}\nTherefore, the answer is' });
  const out = join(root, 'good');
  const r = await runBench([
    'run',
    'ruler-hqa',
    '--lengths',
    '8k',
    '--samples',
    '1',
    '--templates',
    good,
    '--store-prompts',
    '--no-progress',
    '--no-cache',
    '--out',
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
  assert.match(manifest.identity.methods.memagent.templates, /^custom:[0-9a-f]{16}$/);
  // Every call's prompt, by the hash calls.jsonl records: the updates are MemAgent's, the final one is the file's.
  const prompts = readFileSync(join(out, 'calls.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { kind: string; promptHash: string })
    .map((c) => ({
      kind: c.kind,
      text: JSON.parse(readFileSync(join(out, 'prompts', c.promptHash.slice(0, 2), `${c.promptHash}.json`), 'utf8'))
        .messages[0].content as string,
    }));
  const updates = prompts.filter((p) => p.kind === 'update');
  assert.ok(updates.length >= 2);
  for (const u of updates)
    assert.ok(u.text.startsWith(MEMAGENT_UPDATE.slice(0, MEMAGENT_UPDATE.indexOf('{question}'))));
  const final = prompts.filter((p) => p.kind === 'final');
  assert.equal(final.length, 1);
  assert.match(final[0].text, /^Q: [\s\S]+\nMemory: [\s\S]+\nTherefore, the answer is$/);
});

test('readTemplatesFile: a missing slot, a non-string and bad JSON are refused; braces without a name are text', () => {
  const known = methods.templates();
  assert.deepEqual(
    known.map((t) => t.name),
    [
      'update',
      'final',
      'fullContext',
      'infmemPlanner',
      'infmemWriter',
      'rememr1Update',
      'rememr1Final',
      'coaWorker',
      'coaManager',
      'refineInitial',
      'refineStep',
      'mapReduceMap',
      'mapReduceCombine',
      'compress',
      'compressZh',
    ],
  );
  assert.throws(
    () => readTemplatesFile(file('missing.json', { update: '{question} {memory}' }), known),
    /"update" lacks the placeholder \{chunk\}/,
  );
  assert.throws(() => readTemplatesFile(file('num.json', { final: 3 }), known), /"final" must be a string/);
  assert.throws(
    () => readTemplatesFile(file('broken.json', '{"final": '), known),
    /cannot read --templates .*broken\.json: .*expected JSON with keys update, final, fullContext, infmemPlanner/,
  );
  // \boxed{} and upstream's literal \boxed{{}} are no slots: such a template is accepted and sent as written.
  const literal = 'Read {context}\nQ: {question}\nPut the answer in \\boxed{{}} or \\boxed{}.';
  assert.deepEqual(readTemplatesFile(file('literal.json', { fullContext: literal }), known), { fullContext: literal });
  assert.deepEqual(slotsOf(FULL_CONTEXT_BOXED_UPSTREAM), ['context', 'question']);
  assert.deepEqual(slotsOf(MEMAGENT_FINAL_BOXED), ['question', 'memory']);
  assert.equal(
    fillTemplate(literal, { context: 'C', question: 'Q' }),
    'Read C\nQ: Q\nPut the answer in \\boxed{{}} or \\boxed{}.',
  );
  // A {name} without a value (or an Object.prototype name) is left as it is.
  assert.equal(fillTemplate('{constructor} {question} {x}', { question: '{x}' }), '{constructor} {x} {x}');
});
