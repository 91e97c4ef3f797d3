// BABILong's prompt, byte for byte: the full-context template filled as the method fills it equals upstream's
// get_formatted_input on the same inputs (fixture written by running prompts.py), for every switch setting.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fillTemplate } from '../../../harness/methods/templates.js';
import { pyStrip } from '../../../harness/protocol/pytext.js';
import { formattedInput, parseSwitches, promptConfigName, promptParts } from '../../../generators/babilong/prompts.js';
import { BABILONG_TASK_DEFINITIONS } from '../../../generators/babilong/index.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { parseLengths } from '../../../harness/config/lengths.js';

const fixture = JSON.parse(readFileSync(new URL('../../fixtures/babilong/formatted-input.json', import.meta.url), 'utf8')) as {
  cases: Array<{ task: string; switches: string; context: string; question: string; expected: string }>;
};
const tokenizer = loadTokenizer();

test('formattedInput is get_formatted_input', () => {
  assert.ok(fixture.cases.length >= 16);
  for (const c of fixture.cases)
    assert.equal(formattedInput(promptParts(c.task, parseSwitches(c.switches)), c.context, c.question), c.expected, `${c.task} ${c.switches}`);
});

test("a sample's full-context prompt, filled as full-context fills it, is BABILong's prompt of its context", async () => {
  for (const c of fixture.cases) {
    const def = BABILONG_TASK_DEFINITIONS.find((t) => t.name === c.task)!;
    const prepared = await def.prepare({ tokenizer, seed: 1, options: { 'babilong-prompt': c.switches } });
    const sample = prepared.build(parseLengths('1k')[0], 0);
    const text = sample.context.text();
    const filled = fillTemplate(sample.prompt!.fullContext!, { context: text, question: pyStrip(sample.question) });
    const p = promptParts(c.task, parseSwitches(c.switches));
    assert.equal(filled, formattedInput(p, text, sample.question), `${c.task} ${c.switches}`);
    assert.ok(sample.prompt!.finalQuestion!.endsWith(`Question: ${pyStrip(sample.question)}`));
    assert.equal(prepared.flavour, promptConfigName(parseSwitches(c.switches)));
  }
});

test('--babilong-prompt takes three yes|no', () => {
  assert.equal(promptConfigName(parseSwitches(undefined)), 'instruction_yes_examples_yes_post_prompt_yes');
  assert.equal(promptConfigName(parseSwitches('no/yes/no')), 'instruction_no_examples_yes_post_prompt_no');
  assert.throws(() => parseSwitches('yes/yes'), /bad --babilong-prompt 'yes\/yes'/);
  assert.throws(() => parseSwitches('y/n/y'), /three of yes\|no/);
});
