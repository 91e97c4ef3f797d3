// The method registry end to end: a method added from outside (one definition, one register call) runs through the
// real runner with the embedded model, shows in --dry-run and in help, and every result-changing setting of every
// method is part of the run identity, so resuming into the same --out with another value is refused by name.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, test } from 'vitest';
import { parseCli } from '../../../cli/parse.js';
import { helpText } from '../../../cli/help.js';
import type { RunConfig } from '../../../harness/config/run-config.js';
import { UserError } from '../../../harness/errors.js';
import { answerOnce } from '../../../harness/methods/call.js';
import { methods, type CallKind, type MethodDefinition, type MethodOption } from '../../../harness/methods/index.js';
import { FULL_CONTEXT_PHRASE, fillTemplate } from '../../../harness/methods/templates.js';
import { tokenWindows } from '../../../harness/methods/windows.js';
import { createLocalModel } from '../../../reference/local-model.js';
import { executeRun, type RunOutcome } from '../../../harness/runner/runner.js';
import { runHooks } from '../../../cli/run-hooks.js';
import { builtinCatalog } from '../../../generators/index.js';

const FIRST_CHUNK_TOKENS: MethodOption = {
  flag: 'first-chunk-tokens',
  type: 'integer',
  min: 1,
  default: 1000,
  help: 'context tokens shown to the model',
};

/** Its one call kind, with what bench plan needs to cost it. */
const FIRST_CHUNK_ANSWER: CallKind = {
  name: 'first-chunk-answer',
  overheadTokens: 60,
  output: { median: 20, sigma: 0, min: 1, max: 64 },
};

/** The example a newcomer would write: answer from the first N context tokens only, with typed settings. */
const firstChunkOnly: MethodDefinition<{ firstTokens: number }> = {
  name: 'first-chunk-only',
  description: 'answers from the first --first-chunk-tokens tokens of the context (an example method)',
  options: [FIRST_CHUNK_TOKENS],
  templates: [],
  calls: [FIRST_CHUNK_ANSWER],
  settings: (read) => ({ firstTokens: read.int(FIRST_CHUNK_TOKENS) }),
  create: ({ firstTokens }) => ({
    name: 'first-chunk-only',
    async run(sample, ctx) {
      let first: Uint32Array = new Uint32Array(0);
      for (const w of tokenWindows(sample.context.pieces(), firstTokens)) {
        first = w;
        break;
      }
      const prompt = fillTemplate(FULL_CONTEXT_PHRASE, {
        context: ctx.tokenizer.decode(first),
        question: sample.question.trim(),
      });
      return answerOnce(
        ctx,
        sample,
        'first-chunk-only',
        { prompt, promptTokens: ctx.tokenizer.count(prompt) },
        { maxNewTokens: 64, temperature: 0.7, topP: 0.95, defaultFormat: 'phrase' },
        {},
      );
    },
  }),
  plan: (sample, { firstTokens }) => [
    {
      kind: FIRST_CHUNK_ANSWER,
      contextTokens: Math.min(sample.contextTokens, firstTokens),
      promptTokensMax: firstTokens + 256,
      maxNewTokens: 64,
    },
  ],
};

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'bench-registry-'));
  methods.register(firstChunkOnly);
});
afterAll(() => methods.unregister(firstChunkOnly.name));

function config(args: string[]): RunConfig {
  const cmd = parseCli([
    'run',
    'ruler-hqa',
    '--lengths',
    '8k',
    '--samples',
    '2',
    '--workers',
    '1',
    '--no-progress',
    '--no-cache',
    ...args,
  ]);
  assert.equal(cmd.command, 'run');
  return (cmd as { config: RunConfig }).config;
}

const run = (args: string[]): Promise<RunOutcome> =>
  executeRun(config(args), {
    ...runHooks(builtinCatalog()),
    createModel: async (_c, tokenizer) => createLocalModel(tokenizer),
  });

async function refused(args: string[], message: RegExp): Promise<void> {
  await assert.rejects(run(args), (e: unknown) => {
    assert.ok(e instanceof UserError, `not a UserError: ${e}`);
    assert.match(e.message, message);
    assert.ok(!e.message.includes('\n'));
    return true;
  });
}

test('a method registered from outside runs end to end, appears in --dry-run and help, and is refused on a changed setting', async () => {
  const out = join(root, 'first-chunk');
  const outcome = await run(['--method', 'first-chunk-only', '--first-chunk-tokens', '300', '--out', out]);
  assert.equal(outcome.kind, 'finished');
  if (outcome.kind !== 'finished') return;
  assert.equal(outcome.records.length, 2);
  for (const r of outcome.records) {
    assert.equal(r.method, 'first-chunk-only');
    assert.equal(r.status, 'ok');
    assert.equal(r.calls, 1);
  }
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
  assert.deepEqual(manifest.identity.methods['first-chunk-only'], { 'first-chunk-tokens': 300 });

  const dry = await run(['--method', 'first-chunk-only,memagent', '--dry-run']);
  assert.equal(dry.kind, 'dry-run');
  if (dry.kind !== 'dry-run') return;
  const row = dry.rows.find((r) => r.method === 'first-chunk-only')!;
  assert.equal(row.calls, 2);
  assert.equal(row.completionTokensMax, 2 * 64);
  assert.ok(dry.rows.find((r) => r.method === 'memagent')!.calls > row.calls);

  assert.match(helpText('run'), /first-chunk-only\s+answers from the first/);
  assert.match(
    helpText('run'),
    /--first-chunk-tokens N\s+context tokens shown to the model\s+\[1000\]\s+\(first-chunk-only\)/,
  );

  await refused(
    ['--method', 'first-chunk-only', '--first-chunk-tokens', '200', '--out', out],
    /--first-chunk-tokens of first-chunk-only \(was 300, now 200\)/,
  );
  // The same settings resume: nothing left to do.
  const again = await run(['--method', 'first-chunk-only', '--first-chunk-tokens', '300', '--out', out]);
  assert.ok(again.kind === 'finished' && again.calls.calls === 0);
});

test('an option for a method the run does not use is refused', () => {
  assert.throws(
    () => config(['--method', 'full-context', '--chunk-tokens', '100']),
    /--chunk-tokens applies to memagent, infmem, rememr1, chain-of-agents, refine, map-reduce, which this run does not use/,
  );
});

/** Another valid value for an option, to change it between two invocations. */
function otherValue(o: MethodOption, templatesFile: string): string {
  switch (o.type) {
    case 'integer':
      return String(typeof o.default === 'number' ? o.default - 1 : 3);
    case 'number':
      // --temperature / --top-p have no default (each task's own decoding): any explicit value differs from unset.
      return String(typeof o.default === 'number' ? o.default / 2 : 0.5);
    case 'choice':
      return o.choices!.find((c) => c !== o.default)!;
    case 'path':
      return templatesFile;
  }
}

test('every result-changing setting of every built-in method is part of the run identity', async () => {
  const templatesFile = join(root, 'templates.json');
  writeFileSync(
    templatesFile,
    JSON.stringify({
      fullContext: 'Read:\n{context}\nQ: {question}\nTherefore, the answer is',
      final: 'Q: {question}\nMemory: {memory}\nTherefore, the answer is',
    }),
  );
  for (const name of ['memagent', 'full-context', 'rag']) {
    const def = methods.get(name);
    const out = join(root, `identity-${name}`);
    const base = ['--method', name, '--samples', '1', '--out', out];
    const first = await run(base);
    assert.equal(first.kind, 'finished');
    for (const o of def.options) {
      const changed = otherValue(o, templatesFile);
      // --templates and --final change the prompt templates, which the identity holds by content.
      const named =
        o.type === 'path' || o.flag === 'final' ? '--templates/--final \\(prompt templates\\)' : `--${o.flag}`;
      await refused([...base, `--${o.flag}`, changed], new RegExp(`${named} of ${name} \\(was `));
    }
  }
});
