// The questions and document pools of qa_1 and qa_2, read as RULER's qa.py reads them (docs/PROTOCOLS.md §c.9):
// - squad (qa_1): SQuAD v2 dev; the pool is every distinct paragraph, sorted by code point; the questions are the
//   answerable ones (is_impossible false; a SQuAD v1 file without the field counts questions with answers) in file
//   order, with all their answer texts; a question's own document is its paragraph and its "more" documents are the
//   other paragraphs of its article.
// - hotpotqa (qa_2): HotpotQA dev (distractor), records in file order; the pool is every distinct `title\n` + joined
//   sentences, sorted; a question's own documents are its paragraphs (10), its answer the one gold.
// The bundled files are datasets/squad/squad_v2_dev_small.json and datasets/hotpotqa's subset; --data names another.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { DatasetMissingError, UserError } from '../../harness/errors.js';
import { datasetPath } from '../../harness/paths.js';
import { decodeTextBytes } from '../../harness/text-file.js';
import { rowError, scanRows } from '../../harness/data/read.js';
import { BUNDLED_HOTPOT, renderParagraph } from '../ruler-hqa/hotpotqa.js';
import { compareCodePoints } from '../ruler-hqa/pool.js';
import { cachedQaDocs, sha256OfFile, type QaDocs } from './qa-store.js';

export const BUNDLED_SQUAD = 'squad/squad_v2_dev_small.json';

export interface QaQuestion {
  query: string;
  outputs: string[];
  /** Pool indices of the question's own documents, and of its article's other paragraphs (SQuAD). */
  own: number[];
  more: number[];
  /** Pool indices of the documents that hold the answer's evidence: SQuAD's paragraph; HotpotQA's supporting
   *  paragraphs (those its supporting_facts name; none where a record has no supporting_facts). */
  gold: number[];
}

export interface QaData {
  dataset: 'squad' | 'hotpotqa';
  questions: QaQuestion[];
  /** Distinct documents, sorted by code point (read from the on-disk pool cache, generators/ruler/qa-store.ts). */
  docs: QaDocs;
  source: string;
  sha256: string;
  /** Whether the file was named with --data. */
  given: boolean;
}

const HOTPOT_EXPECTED = 'the HotpotQA dev distractor JSON (hotpot_dev_distractor_v1.json, optionally gzipped)';
const SQUAD_EXPECTED =
  'the SQuAD v2 dev JSON (dev-v2.0.json: {version, data: [{title, paragraphs: [{context, qas}]}]})';

const cache = new Map<string, QaData>();

function sortedPool(texts: Iterable<string>): { docs: string[]; indexOf: Map<string, number> } {
  const docs = [...new Set(texts)].sort(compareCodePoints);
  return { docs, indexOf: new Map(docs.map((d, i) => [d, i])) };
}

/** SQuAD v2 dev: the bundled two-article subset, or the file given with --data. */
export function loadSquad(path?: string): QaData {
  return loadQa('squad', path, () => datasetPath(BUNDLED_SQUAD), parseSquad);
}

/** A qa data file (the bundled one without --data), checked to exist, hashed, and read through the pool cache. */
function loadQa(
  dataset: QaData['dataset'],
  path: string | undefined,
  bundled: () => string,
  parse: (file: string) => { docs: string[]; questions: QaQuestion[] },
): QaData {
  const file = path ?? bundled();
  const hit = cache.get(file);
  if (hit) return hit;
  const [what, expected, task] =
    dataset === 'squad' ? ['SQuAD', SQUAD_EXPECTED, 'qa_1'] : ['HotpotQA', HOTPOT_EXPECTED, 'qa_2'];
  if (!existsSync(file)) {
    if (path === undefined)
      throw new DatasetMissingError(
        `the bundled ${what} subset ${file} is missing: reinstall the package, or pass ${expected} with --data`,
      );
    throw new UserError(`--data ${file} does not exist: pass ${expected}`);
  }
  if (statSync(file).isDirectory())
    throw new UserError(`--data ${file} is a directory; ${task} reads one file: ${expected}`);
  const sha256 = sha256OfFile(file);
  const { docs, questions } = cachedQaDocs(dataset, sha256, () => parse(file));
  const data: QaData = { dataset, questions, docs, source: file, sha256, given: path !== undefined };
  cache.set(file, data);
  return data;
}

/** The pool and answerable questions of a SQuAD file (validated). */
function parseSquad(file: string): { docs: string[]; questions: QaQuestion[] } {
  const raw = readFileSync(file);
  let json: unknown;
  try {
    json = JSON.parse(decodeTextBytes(raw, file, `pass ${SQUAD_EXPECTED}`));
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError(`${file} is not valid JSON: expected ${SQUAD_EXPECTED}`);
  }
  const articles = (json as { data?: unknown })?.data;
  if (typeof json !== 'object' || json === null || Array.isArray(json) || !Array.isArray(articles))
    throw new UserError(`${file} is not SQuAD: expected ${SQUAD_EXPECTED}`);
  const bad = (where: string, what: string) => new UserError(`${file}: ${where} ${what}; expected ${SQUAD_EXPECTED}`);
  const paragraphsOf = articles.map((a, i) => {
    const ps = (a as { paragraphs?: unknown })?.paragraphs;
    if (!Array.isArray(ps)) throw bad(`data[${i}]`, 'has no paragraphs list');
    return ps.map((p, j) => {
      const r = p as { context?: unknown; qas?: unknown };
      if (typeof r?.context !== 'string' || !Array.isArray(r.qas))
        throw bad(`data[${i}].paragraphs[${j}]`, 'lacks a context string or a qas list');
      return { context: r.context, qas: r.qas as unknown[], where: `data[${i}].paragraphs[${j}]` };
    });
  });
  const { docs, indexOf } = sortedPool(paragraphsOf.flat().map((p) => p.context));
  const questions: QaQuestion[] = [];
  for (const paragraphs of paragraphsOf) {
    const article = paragraphs.map((p) => indexOf.get(p.context)!);
    for (const p of paragraphs) {
      const own = indexOf.get(p.context)!;
      p.qas.forEach((q, k) => {
        const r = q as { question?: unknown; answers?: unknown; is_impossible?: unknown };
        if (typeof r?.question !== 'string' || !Array.isArray(r.answers))
          throw bad(`${p.where}.qas[${k}]`, 'lacks a question string or an answers list');
        const outputs = r.answers.map((a) => (a as { text?: unknown })?.text);
        if (!outputs.every((t): t is string => typeof t === 'string'))
          throw bad(`${p.where}.qas[${k}]`, 'has an answer without a text');
        const impossible = r.is_impossible === undefined ? outputs.length === 0 : r.is_impossible === true;
        if (impossible || outputs.length === 0) return;
        questions.push({ query: r.question, outputs, own: [own], more: article.filter((d) => d !== own), gold: [own] });
      });
    }
  }
  if (questions.length === 0) throw new UserError(`${file} has no answerable questions: expected ${SQUAD_EXPECTED}`);
  return { docs, questions };
}

/** HotpotQA dev (distractor): the bundled subset, or the file given with --data (plain or gzip JSON list, or JSONL, of
 *  records in file order, as RULER reads them). Records are read one at a time and dropped: only the rendered
 *  paragraphs and each question's own indices stay in memory. */
export function loadHotpotQa(path?: string): QaData {
  return loadQa('hotpotqa', path, () => datasetPath(BUNDLED_HOTPOT), parseHotpotQa);
}

/** The pool and questions of a HotpotQA file (validated), one record at a time. */
function parseHotpotQa(file: string): { docs: string[]; questions: QaQuestion[] } {
  const rendered: string[][] = [];
  const raw: Array<{ query: string; answer: string; gold: number[] }> = [];
  scanRows(
    file,
    (value, ref) => {
      const r = value as { question?: unknown; answer?: unknown; context?: unknown; supporting_facts?: unknown };
      const bad = (what: string) => rowError(file, ref, `${what}; expected ${HOTPOT_EXPECTED}`);
      if (typeof r !== 'object' || r === null || Array.isArray(r)) throw bad('not a JSON object');
      if (typeof r.question !== 'string' || typeof r.answer !== 'string') throw bad('lacks question/answer strings');
      if (!Array.isArray(r.context)) throw bad('lacks a context list');
      rendered.push(
        r.context.map((p, k) => {
          if (
            !Array.isArray(p) ||
            typeof p[0] !== 'string' ||
            !Array.isArray(p[1]) ||
            !p[1].every((x) => typeof x === 'string')
          )
            throw bad(`has a malformed context paragraph ${k}`);
          return renderParagraph(p[0], p[1] as string[]);
        }),
      );
      // The supporting paragraphs' titles (a record without supporting_facts names none).
      const supporting = new Set<string>();
      if (Array.isArray(r.supporting_facts))
        for (const f of r.supporting_facts) if (Array.isArray(f) && typeof f[0] === 'string') supporting.add(f[0]);
      const gold: number[] = [];
      r.context.forEach((p, k) => supporting.has((p as [string])[0]) && gold.push(k));
      raw.push({ query: r.question, answer: r.answer, gold });
    },
    { gzip: true },
  );
  if (raw.length === 0) throw new UserError(`no questions in ${file}: expected ${HOTPOT_EXPECTED}`);
  const { docs, indexOf } = sortedPool(rendered.flat());
  const questions = raw.map((q, i) => ({
    query: q.query,
    outputs: [q.answer],
    own: rendered[i].map((t) => indexOf.get(t)!),
    more: [],
    gold: q.gold.map((k) => indexOf.get(rendered[i][k])!),
  }));
  return { docs, questions };
}
