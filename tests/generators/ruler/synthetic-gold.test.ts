// vt, cwe, fwe, qa_1, qa_2 in both flavours: the gold answers are what the generated text says (recomputed from
// the text alone), the streamed ids are the text's encoding, and the whole one-shot prompt plus the generation
// budget fits the target. The summary line at the end gives the counts for the record.
import { afterAll, test } from 'vitest';
import assert from 'node:assert/strict';
import {
  countsOf,
  numberedWords,
  onePrompt,
  prepare,
  resolvingVariables,
  sameIds,
  tokenizer,
  tokens,
} from './synthetic-helpers.js';
import { loadSquad, loadHotpotQa } from '../../../generators/ruler/qa-data.js';

const FLAVOURS = ['memagent', 'ruler'] as const;
const LENGTHS = [8192, 32768];
const INDICES = [0, 1, 2, 3];
const summary: Record<string, { samples: number; checks: string[] }> = {};
const note = (task: string, check: string) => {
  summary[task] ??= { samples: 0, checks: [] };
  if (!summary[task].checks.includes(check)) summary[task].checks.push(check);
};

afterAll(() => {
  const line = Object.entries(summary)
    .map(([t, s]) => `${t}: ${s.samples} samples (${s.checks.join('; ')})`)
    .join(' | ');
  console.log(`synthetic gold checks: ${line}`);
});

/** Prompt count, budget and streaming: the checks every task shares. */
function checkCommon(
  task: string,
  s: Awaited<ReturnType<Awaited<ReturnType<typeof prepare>>['build']>>,
  budget: number,
): string {
  const text = s.context.text();
  const ids = tokenizer.encode(text);
  assert.ok(sameIds(ids, s.context.pieces()), `${task}: streamed ids are the text's encoding`);
  assert.equal(s.context.tokenCount, ids.length, `${task}: tokenCount`);
  const prompt = tokenizer.count(onePrompt(s, text));
  assert.equal(prompt, s.metadata.prompt_tokens, `${task}: prompt_tokens is the whole prompt's count`);
  const total = prompt + (s.metadata.tokens_to_generate as number);
  assert.ok(total <= budget, `${task}: ${total} > ${budget}`);
  return text;
}

for (const flavour of FLAVOURS) {
  test(`vt (${flavour}): the gold is the variables whose chain resolves to the queried value`, async () => {
    const p = await prepare('vt', { flavour });
    for (const L of LENGTHS)
      for (const i of INDICES) {
        const s = p.build(tokens(L), i);
        const text = checkCommon('vt', s, L);
        const value = /assigned the value (\d+)/.exec(s.question)![1];
        assert.deepEqual(resolvingVariables(text, value).sort(), [...s.answers].sort(), `vt ${L}/${i}`);
        assert.equal(s.answers.length, 5);
        // In chain order: each statement after the first points at the one before.
        assert.deepEqual(
          [...text.matchAll(/VAR ([A-Z]+) = /g)].map((m) => m[1]),
          s.answers,
          'statements appear in chain order',
        );
        const total = (s.metadata.prompt_tokens as number) + 30;
        assert.ok(L - total < 2 * 25, `vt ${L}/${i}: ${L - total} tokens left (more than two noise lines)`);
        if (flavour === 'ruler') {
          // The in-context example resolves to its own value, not the queried one.
          const example = s.prompt!.nativeTemplate!.slice(0, s.prompt!.nativeTemplate!.indexOf('{context}'));
          const ex = s.metadata.example as { names: string[]; value: string };
          assert.deepEqual(resolvingVariables(example, ex.value).sort(), [...ex.names].sort());
          assert.notEqual(ex.value, value);
          assert.ok(example.includes(`they are:  ${ex.names.join(' ')}\n`), 'example ends with its answer');
          assert.ok(!text.includes(' \n ') && /VAR [A-Z]+ = VAR [A-Z]+ \n/.test(text), 'lines joined by newlines');
        } else {
          assert.ok(text.includes('again.\n The grass'), "MemAgent's units end in a newline and are joined by spaces");
          assert.ok(!text.endsWith('\n'), 'stored stripped');
        }
        summary.vt ??= { samples: 0, checks: [] };
        summary.vt.samples++;
      }
    note('vt', 'gold = variables resolving to the queried value, in chain order');
  });

  test(`cwe (${flavour}): the gold is the 10 most frequent words of the list`, async () => {
    const p = await prepare('cwe', { flavour });
    for (const L of LENGTHS)
      for (const i of INDICES) {
        const s = p.build(tokens(L), i);
        const text = checkCommon('cwe', s, L);
        const { words, consecutive } = numberedWords(text);
        assert.ok(consecutive, 'numbered 1, 2, 3, …');
        const counts = countsOf(words);
        assert.deepEqual(
          counts
            .slice(0, 10)
            .map(([w]) => w)
            .sort(),
          [...s.answers].sort(),
          `cwe ${L}/${i}`,
        );
        assert.ok(
          counts.slice(0, 10).every(([, c]) => c === 30),
          'the 10 appear 30 times',
        );
        assert.ok(
          counts.slice(10).every(([, c]) => c === 3),
          'the others 3 times',
        );
        assert.equal(words.length, s.metadata.list_items);
        if (flavour === 'ruler') {
          const demo = s.prompt!.nativeTemplate!.slice(0, s.prompt!.nativeTemplate!.indexOf('{context}'));
          const demoList = demo.slice(0, demo.indexOf('\nQuestion:'));
          const demoCounts = countsOf(numberedWords(demoList.slice(demoList.indexOf('often.\n') + 7)).words);
          const shown = demo.slice(demo.indexOf('are: ') + 5).trim();
          assert.deepEqual(
            numberedWords(shown).words.sort(),
            demoCounts
              .slice(0, 10)
              .map(([w]) => w)
              .sort(),
            'the demonstration answers its own list',
          );
        }
        summary.cwe ??= { samples: 0, checks: [] };
        summary.cwe.samples++;
      }
    note('cwe', 'gold = 10 most frequent numbered words (30× vs 3×), numbering consecutive');
  });

  test(`fwe (${flavour}): the gold is the 3 most frequent coded words (the dots aside)`, async () => {
    const p = await prepare('fwe', { flavour });
    for (const L of LENGTHS)
      for (const i of INDICES) {
        const s = p.build(tokens(L), i);
        const text = checkCommon('fwe', s, L);
        const counts = countsOf(text.split(' '));
        assert.equal(counts[0][0], '...', 'rank 1 is the noise');
        assert.deepEqual(
          counts.slice(1, 4).map(([w]) => w),
          s.answers,
          `fwe ${L}/${i}: ranks 2-4 in order`,
        );
        assert.ok(counts[3][1] > counts[4][1], 'rank 4 strictly above rank 5');
        assert.ok(
          counts.every(([w]) => w === '...' || /^[a-z]{6}$/.test(w)),
          '6-letter coded words',
        );
        summary.fwe ??= { samples: 0, checks: [] };
        summary.fwe.samples++;
      }
    note('fwe', 'gold = ranks 2-4 by count, "..." first, 6-letter words');
  });

  for (const name of ['qa_1', 'qa_2'] as const) {
    test(`${name} (${flavour}): the gold is in the question's own documents, which are in the context`, async () => {
      const p = await prepare(name, { flavour });
      const data = name === 'qa_1' ? loadSquad() : loadHotpotQa();
      let yesNo = 0;
      for (const L of LENGTHS)
        for (const i of INDICES) {
          const s = p.build(tokens(L), i);
          const text = checkCommon(name, s, L);
          const q = data.questions[s.metadata.question_index as number];
          assert.equal(s.question, `Answer the question based on the given documents. ${q.query}`);
          assert.ok(s.prompt!.nativeTemplate!.endsWith(`Question: ${q.query}`));
          const blocks = text.split('\n\nDocument ');
          assert.equal(blocks.length, s.metadata.num_docs, 'one block per document');
          for (const d of q.own) assert.ok(text.includes(`:\n${data.docs.text(d)}`), 'own documents present');
          for (const pos of s.metadata.own_docs as number[])
            assert.ok(
              q.own.some((d) => text.includes(`Document ${pos}:\n${data.docs.text(d)}`)),
              `own doc at ${pos}`,
            );
          const gold = s.answers;
          if (name === 'qa_1') {
            for (const g of gold)
              assert.ok(
                q.own.some((d) => data.docs.text(d).includes(g)),
                `'${g}' in its paragraph`,
              );
          } else if (/^(yes|no)$/i.test(gold[0])) yesNo++;
          else assert.ok(text.includes(gold[0]), `'${gold[0]}' in the context`);
          summary[name] ??= { samples: 0, checks: [] };
          summary[name].samples++;
        }
      note(
        name,
        name === 'qa_1' ? 'every gold answer in its own paragraph' : `gold in context except yes/no (${yesNo} yes/no)`,
      );
    });
  }
}
