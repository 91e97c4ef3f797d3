// Test fixtures for the reference reader: RULER-HQA-style contexts built from the bundled HotpotQA subset,
// a MemAgent-style loop over character windows, MemAgent's answer extraction and sub-EM.

import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { datasetPath } from '../../../harness/paths.js';
import { MEMAGENT_FINAL_PHRASE, MEMAGENT_UPDATE, NO_MEMORY, fillTemplate } from '../../../harness/methods/templates.js';
import { referenceReply } from '../../../reference/builtin-reader.js';
import { mulberry32 } from '../../../harness/util/prng.js';
import { extractPhraseAnswer } from '../../../harness/protocol/answer.js';
import { normalizeAnswer, subEm as scorerSubEm } from '../../../harness/scorers/qa.js';

export interface HotpotRecord {
  _id: string;
  dev_index: number;
  question: string;
  answer: string;
  type: string;
  supporting_facts: [string, number][];
  context: [string, string[]][];
}

let cached: HotpotRecord[] | undefined;

export function loadHotpot(): HotpotRecord[] {
  cached ??= JSON.parse(
    gunzipSync(readFileSync(datasetPath('hotpotqa', 'hotpot_dev_distractor_subset.json.gz'))).toString('utf8'),
  ) as HotpotRecord[];
  return cached;
}

/** Seeded PRNG (mulberry32). */
export const rng = mulberry32;

const paragraphText = ([title, sents]: [string, string[]]): string => `${title}\n${sents.join('')}`;

let pool: string[] | undefined;
function paragraphPool(records: HotpotRecord[]): string[] {
  pool ??= [...new Set(records.flatMap((r) => r.context.map(paragraphText)))].sort();
  return pool;
}

export interface BuiltSample {
  record: HotpotRecord;
  context: string;
  /** Gold supporting sentences (trimmed). */
  gold: string[];
}

/** The question's 10 paragraphs plus random others up to `targetChars`, shuffled, as "Document {i}:" blocks. */
export function buildSample(records: HotpotRecord[], index: number, targetChars: number, seed: number): BuiltSample {
  const record = records[index];
  const own = record.context.map(paragraphText);
  const ownSet = new Set(own);
  const all = paragraphPool(records);
  const rand = rng(seed * 1000003 + index);
  const chosen = [...own];
  let chars = own.reduce((n, p) => n + p.length + 16, 0);
  const used = new Set<number>();
  while (chars < targetChars && used.size < all.length) {
    const k = Math.floor(rand() * all.length);
    if (used.has(k)) continue;
    used.add(k);
    if (ownSet.has(all[k])) continue;
    chosen.push(all[k]);
    chars += all[k].length + 16;
  }
  for (let i = chosen.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [chosen[i], chosen[j]] = [chosen[j], chosen[i]];
  }
  const context = chosen.map((p, i) => `Document ${i + 1}:\n${p}`).join('\n\n');
  const byTitle = new Map(record.context);
  const gold = record.supporting_facts.map(([t, k]) => byTitle.get(t)?.[k]?.trim() ?? '').filter((s) => s.length > 0);
  return { record, context, gold };
}

export interface LoopResult {
  memory: string;
  memories: string[];
  raw: string;
  prediction: string | null;
  calls: number;
}

/** MemAgent's loop with character windows standing in for 5,000-token windows. */
export function memAgentLoop(question: string, context: string, windowChars = 20000, maxTokens = 1024): LoopResult {
  let memory = NO_MEMORY;
  const memories: string[] = [];
  const text = context.trim();
  let calls = 0;
  for (let at = 0; at < text.length; at += windowChars) {
    const chunk = text.slice(at, at + windowChars);
    const prompt = fillTemplate(MEMAGENT_UPDATE, { question, memory, chunk });
    memory = referenceReply([{ role: 'user', content: prompt }], maxTokens);
    memories.push(memory);
    calls++;
  }
  const raw = referenceReply(
    [{ role: 'user', content: fillTemplate(MEMAGENT_FINAL_PHRASE, { question, memory }) }],
    maxTokens,
  );
  return { memory, memories, raw, prediction: extractPhrase(raw), calls: calls + 1 };
}

/** MemAgent's answer extraction (docs/PROTOCOLS.md §a.6), as the scorers implement it. */
export const extractPhrase = extractPhraseAnswer;

export const normalize = normalizeAnswer;

/** MemAgent sub-EM against one gold answer, as the scorers implement it. */
export function subEm(prediction: string | null, gold: string): number {
  return scorerSubEm(prediction, [gold]);
}

/** Whether the memory holds a gold sentence (its first 60 characters, whitespace-normalised). */
export function holdsSentence(memory: string, sentence: string): boolean {
  const m = memory.replace(/\s+/g, ' ');
  const s = sentence.replace(/\s+/g, ' ').trim();
  return m.includes(s.slice(0, Math.min(60, s.length)));
}
