// MemAgent on a summarisation problem (LongBench gov_report / qmsum / multi_news): the reader recognises the
// problem, keeps the most central sentences in memory and answers "Therefore, the answer is <summary>".

import { test } from 'vitest';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fullContextTemplate, instructionOf, LONGBENCH_SUM_DATASETS } from '../../../generators/longbench/prompts.js';
import { MEMAGENT_FINAL_BOXED, MEMAGENT_UPDATE, NO_MEMORY, fillTemplate } from '../../../harness/methods/templates.js';
import { referenceReply } from '../../../reference/builtin-reader.js';
import { parseMemory } from '../../../reference/reader/memory.js';
import { isSummaryProblem, summaryQueryKeys } from '../../../reference/reader/summary.js';
import { cleanSummaryText, splitSummary } from '../../../reference/reader/summary-text.js';
import { datasetPath } from '../../../harness/paths.js';
import { extractBoxedAnswer } from '../../../harness/protocol/answer.js';
import { pltrdyRouge } from '../../../generators/longbench/rouge-pltrdy.js';
import { loadHotpot, memAgentLoop } from './fixture.js';

interface Row {
  context: string;
  answers: string[];
}

const user = (content: string) => [{ role: 'user' as const, content }];
const MULTI_NEWS = instructionOf('multi_news');

function multiNewsRows(): Row[] {
  const text = readFileSync(datasetPath('longbench', 'fixtures', 'multi_news.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as Row);
}

function rougeLRecall(prediction: string, gold: string): number {
  const s = pltrdyRouge(prediction, gold);
  return s.ok ? s.rougeL.r : 0;
}

/** The reader's full-context summary: LongBench's own multi_news prompt, 512 new tokens. */
function fullContextSummary(context: string): string {
  return referenceReply(user(fillTemplate(fullContextTemplate('multi_news'), { context, question: '' })), 512);
}

/** Text as the summariser reads it, whitespace collapsed. */
function flat(text: string): string {
  return cleanSummaryText(text).replace(/\s+/g, ' ');
}

/**
 * Whether the summary is made of whole sentences of the text (as the reader splits it), each used at most once and
 * in document order; returns the first part that is not, or null.
 */
function notExtractive(summary: string, text: string): string | null {
  const sources = splitSummary(text, { title: null, next: 0 }, true).sents.map((x) => x.text);
  let p = 0;
  let k = 0;
  // MemAgent's answer extraction strips the final period of the reply.
  const fits = (src: string): boolean =>
    (summary.startsWith(src, p) && (p + src.length === summary.length || summary[p + src.length] === ' ')) ||
    summary.slice(p) === src.replace(/\.+$/, '');
  while (p < summary.length) {
    while (k < sources.length && !fits(sources[k])) k++;
    if (k === sources.length) return summary.slice(p, p + 200);
    p += sources[k].length + 1;
    k++;
  }
  return null;
}

const sentencesOf = (summary: string): string[] =>
  summary.split(/(?<=[.!?"”)]) (?=["“(]?[A-Z0-9])/).filter((s) => s.length > 0);

test('summarisation problems are recognised; QA, NIAH and variable-tracking questions are not', () => {
  for (const d of LONGBENCH_SUM_DATASETS) {
    if (d === 'qmsum') continue; // qmsum rows always carry a query
    assert.ok(isSummaryProblem(instructionOf(d)), d);
    assert.deepEqual(summaryQueryKeys(instructionOf(d)), [], `instruction words are not query terms: ${d}`);
  }
  for (const q of [
    'Summarize the whole meeting.',
    'What did the group discuss about the remote control design?',
    'Why did Grad F think the meeting should move on?',
  ]) {
    assert.ok(isSummaryProblem(q), q);
  }
  assert.deepEqual(summaryQueryKeys('What did the group discuss about the remote control design?'), [
    'remote',
    'contro',
    'design',
  ]);
  for (const q of [
    'What are all the special magic numbers for fearless-ocean mentioned in the provided text?',
    'Question: Find all variables that are assigned the value 12345 in the text above.',
    'Where is the historic meeting venue built in a style taught at the Ecole des Beaux-Arts?',
  ]) {
    assert.ok(!isSummaryProblem(q), q);
  }
  const hotpot = loadHotpot();
  assert.equal(hotpot.filter((r) => isSummaryProblem(r.question)).length, 0, 'a HotpotQA question taken for a summary');
});

test('summary sentence splitting: NEWLINE_CHAR breaks, passage labels, chunk tails carried', () => {
  const text =
    'Passage 1:\nThe mayor spoke on Monday. NEWLINE_CHAR NEWLINE_CHAR Dr. Smith and J. Jones agreed with the U.S. Army plan.\nPassage 2:\nIt rained all day in the city. The river ro';
  const s = splitSummary(text, { title: null, next: 0 }, false);
  assert.deepEqual(
    s.sents.map((x) => [x.title, x.idx, x.text]),
    [
      ['Passage 1', 0, 'The mayor spoke on Monday.'],
      ['Passage 1', 1, 'Dr. Smith and J. Jones agreed with the U.S. Army plan.'],
      ['Passage 2', 0, 'It rained all day in the city.'],
    ],
  );
  assert.deepEqual(s.carry, { title: 'Passage 2', next: 1, fragment: 'The river ro' });
  const next = splitSummary(
    `${s.carry?.fragment ?? ''}se after the storm.\nHard-wrapped prose keeps\ngoing on the next line. Glued.Sentences here.`,
    s.carry ?? { title: null, next: 0 },
    true,
  );
  assert.deepEqual(
    next.sents.map((x) => [x.title, x.idx, x.text]),
    [
      ['Passage 2', 1, 'The river rose after the storm.'],
      ['Passage 2', 2, 'Hard-wrapped prose keeps going on the next line.'],
      ['Passage 2', 3, 'Glued.'],
      ['Passage 2', 4, 'Sentences here.'],
    ],
  );
  assert.equal(next.carry, null);
});

test('multi_news through a MemAgent loop: a summary after "the answer is", ROUGE-L recall comparable to full context', () => {
  const rows = multiNewsRows();
  assert.equal(rows.length, 5);
  const lines: string[] = [];
  for (const [i, row] of rows.entries()) {
    const gold = row.answers[0];
    const full = fullContextSummary(row.context);
    const fullRecall = rougeLRecall(full, gold);
    assert.ok(fullRecall > 0.1, `row ${i}: full-context ROUGE-L recall ${fullRecall}`);
    // 20,000 characters ≈ MemAgent's 5,000-token window (one update for these rows); 2,500 forces 2–5 updates.
    for (const windowChars of [20_000, 2_500]) {
      const r = memAgentLoop(MULTI_NEWS, row.context, windowChars, 1024);
      assert.match(r.raw, /^Therefore, the answer is /);
      const summary = r.prediction ?? '';
      assert.ok(summary.length > 300 && summary.length <= 1024 * 3.5, `row ${i}: summary of ${summary.length} chars`);
      assert.ok(!summary.includes('NEWLINE_CHAR') && !/Passage \d+:/.test(summary), summary);
      const recall = rougeLRecall(summary, gold);
      assert.ok(
        recall >= 0.5 * fullRecall,
        `row ${i}, ${windowChars}-char windows: memagent recall ${recall} vs full context ${fullRecall}`,
      );
      lines.push(`row ${i} w${windowChars}: ${recall.toFixed(3)} vs ${fullRecall.toFixed(3)}`);
      const odd = notExtractive(summary, row.context);
      assert.equal(odd, null, `row ${i}: not a sentence of the text in document order: ${odd}`);
      // Every memory stays within the budget and in the reader's format.
      for (const m of r.memories) {
        assert.ok(m.length <= 1024 * 3.5, `memory of ${m.length} chars`);
        const parsed = parseMemory(m);
        assert.ok(parsed.lines.length > 0 && parsed.carry?.topic !== undefined, m);
      }
      if (windowChars === 2_500) assert.ok(r.calls >= 3, `row ${i}: ${r.calls} calls`);
    }
  }
  assert.ok(lines.length === 10, lines.join('\n'));
});

test('summary memory: document order and passage labels survive updates; output is deterministic', () => {
  const row = multiNewsRows()[0];
  const a = memAgentLoop(MULTI_NEWS, row.context, 3000, 1024);
  const b = memAgentLoop(MULTI_NEWS, row.context, 3000, 1024);
  assert.equal(a.raw, b.raw);
  assert.deepEqual(a.memories, b.memories);
  const lines = parseMemory(a.memory).lines;
  assert.ok(
    lines.some((l) => l.title === 'Passage 2'),
    a.memory,
  );
  const order = lines.map((l) => [Number((l.title ?? 'Passage 0').split(' ')[1]), l.idx]);
  for (let k = 1; k < order.length; k++) {
    const [p0, i0] = order[k - 1];
    const [p1, i1] = order[k];
    assert.ok(p1 > p0 || (p1 === p0 && i1 > i0), `memory out of order: ${a.memory}`);
  }
});

test('boxed final variant carries the summary inside \\boxed{}', () => {
  const row = multiNewsRows()[2];
  let memory = NO_MEMORY;
  memory = referenceReply(
    user(fillTemplate(MEMAGENT_UPDATE, { question: MULTI_NEWS, memory, chunk: row.context })),
    1024,
  );
  const out = referenceReply(user(fillTemplate(MEMAGENT_FINAL_BOXED, { question: MULTI_NEWS, memory })), 1024);
  const boxed = extractBoxedAnswer(out) ?? '';
  assert.ok(boxed.length > 300, out);
  assert.ok(rougeLRecall(boxed, row.answers[0]) > 0.1, boxed);
});

test('a long text (~640 KB of essays, 33 updates): bounded memory with a topic line; a qmsum-style query steers it', () => {
  const dir = datasetPath('essays', 'paul_graham');
  const essays = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort();
  const text = essays.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n\n');
  const whole = instructionOf('gov_report');
  const r = memAgentLoop(whole, text, 20_000, 1024);
  assert.ok(r.calls >= 30, `${r.calls} calls`);
  const summary = r.prediction ?? '';
  assert.ok(summary.length > 300, summary);
  for (const m of r.memories) assert.ok(m.length <= 1024 * 3.5);
  assert.equal(notExtractive(summary, text), null);
  const doc = flat(text.slice(0, 200_000));

  // A meeting transcript (speaker-labelled lines) and a qmsum query: the answer is about the query's subject.
  const sents = doc.split(/(?<=[.!?]) (?=[A-Z])/);
  const speakers = ['Grad F', 'PhD A', 'Professor B', 'Marketing', 'Project Manager'];
  const turns: string[] = [];
  for (let i = 0; i < sents.length; i += 3)
    turns.push(`${speakers[(i / 3) % speakers.length]}: ${sents.slice(i, i + 3).join(' ')}`);
  const transcript = turns.join('\n');
  const share = (problem: string, word: RegExp): number => {
    const out = sentencesOf(memAgentLoop(problem, transcript, 20_000, 1024).prediction ?? '');
    return out.filter((s) => word.test(s)).length / Math.max(1, out.length);
  };
  const steered = share('What did the group discuss about Lisp?', /\blisp\b/i);
  const plain = share('Summarize the whole meeting.', /\blisp\b/i);
  assert.ok(steered >= 0.5 && steered > plain, `Lisp sentences: steered ${steered}, plain ${plain}`);
});

test('QA problems keep the QA memory format (no topic line)', () => {
  const r = loadHotpot()[0];
  const chunk = r.context.map(([t, ss], i) => `Document ${i + 1}:\n${t}\n${ss.join('')}`).join('\n\n');
  const memory = referenceReply(
    user(fillTemplate(MEMAGENT_UPDATE, { question: r.question, memory: NO_MEMORY, chunk })),
    1024,
  );
  assert.equal(parseMemory(memory).carry?.topic, undefined);
});
