// Typed method settings: each method parses its own settings object once from the run's flag values; method code
// reads only typed fields. A flag may be shared with another method under its own help line, as long as type,
// default and range agree.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, test } from 'vitest';
import { helpText } from '../../../cli/help.js';
import { parseCli } from '../../../cli/parse.js';
import type { RunConfig } from '../../../harness/config/run-config.js';
import { methods, type MethodDefinition, type MethodOption } from '../../../harness/methods/index.js';
import { MAX_CONTEXT } from '../../../harness/methods/options.js';
import { MethodRegistry } from '../../../harness/methods/registry.js';
import {
  FULL_CONTEXT_BOXED,
  MEMAGENT_FINAL_BOXED,
  MEMAGENT_UPDATE,
  ONE_SHOT_TEMPLATE,
} from '../../../harness/methods/templates.js';
import { fullContext, oneShotPlan } from '../../../harness/methods/full-context.js';
import { memAgent } from '../../../harness/methods/memagent.js';

function config(args: string[]): RunConfig {
  const cmd = parseCli(['run', 'ruler-hqa', ...args]);
  assert.equal(cmd.command, 'run');
  return (cmd as { config: RunConfig }).config;
}

test('each built-in method parses its typed settings from the flag values', () => {
  const c = config([
    '--method',
    'memagent,full-context,rag',
    '--chunk-tokens',
    '3000',
    '--memory-tokens',
    '256',
    '--temperature',
    '0.2',
    '--final',
    'boxed',
    '--max-context',
    '9000',
    '--rag-top-k',
    '4',
  ]);
  const mem = methods.get('memagent').settings(c.methodSettings) as Record<string, unknown>;
  assert.deepEqual(mem, {
    chunkTokens: 3000,
    memoryTokens: 256,
    temperature: 0.2,
    templates: { update: MEMAGENT_UPDATE, final: MEMAGENT_FINAL_BOXED },
    templatesIdentity: mem.templatesIdentity,
  });
  assert.match(String(mem.templatesIdentity), /^memagent-boxed:[0-9a-f]{16}$/);
  const rag = methods.get('rag').settings(c.methodSettings) as Record<string, unknown>;
  assert.equal(rag.maxContext, 9000);
  assert.equal(rag.topK, 4);
  assert.equal(rag.temperature, 0.2);
  assert.equal(rag.topP, undefined, 'an unset --top-p leaves the task default');
  assert.deepEqual(rag.templates, { fullContext: FULL_CONTEXT_BOXED });
  const full = methods.get('full-context').settings(c.methodSettings) as Record<string, unknown>;
  assert.equal(full.maxContext, 9000);
  assert.ok(!('topK' in full) && !('chunkTokens' in full), 'a method holds only its own settings');
  // Every method fingerprints the same three templates (the identity as written before per-method templates).
  assert.equal(full.templatesIdentity, mem.templatesIdentity);
});

test('settings are parsed once per flag-values object, however often the method is planned or created', () => {
  let parses = 0;
  const counted: MethodDefinition<{ window: number }> = {
    ...fullContext,
    name: 'counted',
    settings: (read) => {
      parses++;
      return { window: read.int(MAX_CONTEXT) };
    },
    create: () => ({ name: 'counted', run: () => Promise.reject(new Error('not run')) }),
    plan: (s, { window }) => oneShotPlan(s, { maxContext: window }),
    identityExtras: undefined,
  };
  const registry = new MethodRegistry([counted]);
  const values = { 'max-context': 700, final: 'phrase' };
  const m = registry.get('counted');
  for (let i = 0; i < 5; i++) assert.equal(m.plan({ contextTokens: 1000 }, values)[0].contextTokens, 700);
  m.create(values);
  m.identity(values);
  assert.equal(parses, 1);
  m.plan({ contextTokens: 10 }, { ...values });
  assert.equal(parses, 2, 'another flag-values object is parsed again');
});

test('a method may read only the options it declares', () => {
  const nosy: MethodDefinition<number> = {
    ...fullContext,
    name: 'nosy',
    settings: (read) => read.int(memAgent.options[0]),
    create: () => ({ name: 'nosy', run: () => Promise.reject(new Error('not run')) }),
    plan: () => [],
    identityExtras: undefined,
  };
  const registry = new MethodRegistry([nosy]);
  assert.throws(
    () => registry.get('nosy').settings({ 'chunk-tokens': 10 }),
    /'nosy' reads --chunk-tokens, which it does not declare/,
  );
});

/** A method that shares --chunk-tokens with memagent (same type, default and range) under its own help line. */
const CHUNK: MethodOption = {
  ...memAgent.options.find((o) => o.flag === 'chunk-tokens')!,
  help: 'tokens per peeked window',
};
const peek: MethodDefinition<{ chunk: number }> = {
  name: 'window-peek',
  description: 'an example method sharing --chunk-tokens',
  options: [CHUNK],
  templates: [ONE_SHOT_TEMPLATE],
  calls: [],
  settings: (read) => ({ chunk: read.int(CHUNK) }),
  create: () => ({ name: 'window-peek', run: () => Promise.reject(new Error('not run')) }),
  plan: () => [],
};

beforeAll(() => methods.register(peek));
afterAll(() => methods.unregister(peek.name));

test('a flag shared with different help: one value for both methods, one help line per description', () => {
  const c = config(['--method', 'window-peek', '--chunk-tokens', '777']);
  assert.deepEqual(methods.get('window-peek').settings(c.methodSettings), { chunk: 777 });
  const both = config(['--method', 'memagent,window-peek', '--chunk-tokens', '640']);
  assert.equal((methods.get('memagent').settings(both.methodSettings) as { chunkTokens: number }).chunkTokens, 640);

  const lines = helpText('run').split('\n');
  const at = lines.findIndex((l) => l.startsWith('  --chunk-tokens N '));
  assert.match(lines[at], /^ {2}--chunk-tokens N\s+context tokens per memory-update call\s+\[5000\]\s+\(memagent\)$/);
  // Each other method's own help for the flag follows on its own line (the rivals', then this one's).
  assert.ok(
    lines.slice(at + 1, at + 8).some((l) => /^ {24}tokens per peeked window\s+\(window-peek\)$/.test(l)),
    lines.slice(at, at + 8).join('\n'),
  );
  assert.equal(lines.filter((l) => l.startsWith('  --chunk-tokens ')).length, 1, 'the flag is named once');
  // The one-shot methods describe --max-context each in their own words.
  const mc = lines.findIndex((l) => l.startsWith('  --max-context N '));
  assert.match(lines[mc], /a longer prompt loses its middle\s+\[120000\]\s+\(full-context\)$/);
  assert.match(lines[mc + 1], /filled with the best passages\s+\(rag\)$/);
});

test('a shared flag must agree on type, default and range; a shared template on its slots', () => {
  const registry = new MethodRegistry([memAgent]);
  assert.throws(
    () => registry.register({ ...peek, name: 'other-default', options: [{ ...CHUNK, default: 4000 }] }),
    /'other-default': --chunk-tokens is declared with another type, default or range by another method/,
  );
  assert.throws(
    () => registry.register({ ...peek, name: 'other-range', options: [{ ...CHUNK, min: 1 }] }),
    /--chunk-tokens is declared with another type, default or range/,
  );
  const withOneShot = new MethodRegistry([fullContext]);
  assert.throws(
    () =>
      withOneShot.register({ ...peek, name: 'bad-slots', templates: [{ ...ONE_SHOT_TEMPLATE, slots: ['context'] }] }),
    /template "fullContext" is declared differently/,
  );
});
