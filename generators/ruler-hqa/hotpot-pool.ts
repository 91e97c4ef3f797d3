// The paragraph pool MemAgent's index-form files point into (docs/PROTOCOLS.md §b, §h): every paragraph of the
// HotpotQA dev file rendered `title + "\n" + "".join(sentences)`, deduplicated and sorted (Python's sorted(set(...))),
// read from the file given with --pool. Records are read one at a time and dropped, so only the rendered paragraphs
// stay in memory; tokenizing them is generators/ruler-hqa/pool.ts's job (poolFromTexts, cached by the file's sha256).
import { statSync } from 'node:fs';
import { UserError } from '../../harness/errors.js';
import type { Tokenizer } from '../../harness/types.js';
import { renderParagraph } from './hotpotqa.js';
import { compareCodePoints, poolFromTexts, type ParagraphPool } from './pool.js';
import type { DataFormat } from '../../harness/data/format.js';
import { rowError, scanRows } from '../../harness/data/read.js';

export interface PoolFile {
  path: string;
  sha256: string;
  /** Rendered paragraphs in pool order (index i of an index-form context is texts[i]). */
  texts: string[];
}

const cache = new Map<string, PoolFile>();

/** Reads the --pool file (plain or gzip JSON list, or JSONL, of HotpotQA records). */
export function loadPoolFile(path: string): PoolFile {
  let key: string;
  try {
    const st = statSync(path);
    key = `${path}\u0000${st.size}\u0000${st.mtimeMs}`;
  } catch {
    throw new UserError(
      `--pool ${path} does not exist: pass the HotpotQA dev distractor file (hotpot_dev_distractor_v1.json) the index-form data was built from`,
    );
  }
  const hit = cache.get(key);
  if (hit) return hit;
  const unique = new Set<string>();
  const scanned = scanRows(
    path,
    (value, ref) => {
      const bad = (what: string) =>
        rowError(
          `--pool ${path}`,
          ref,
          `${what}; expected HotpotQA records {_id, question, answer, supporting_facts, context: [[title, [sentences]]]}`,
        );
      const r = value as Record<string, unknown>;
      if (typeof r !== 'object' || r === null || Array.isArray(r)) throw bad('not a JSON object');
      if (!Array.isArray(r.context)) throw bad('field "context" is missing or not a list');
      r.context.forEach((p, k) => {
        if (
          !Array.isArray(p) ||
          typeof p[0] !== 'string' ||
          !Array.isArray(p[1]) ||
          !p[1].every((s) => typeof s === 'string')
        ) {
          throw bad(`field "context"[${k}] is not a [title, [sentences]] pair`);
        }
        unique.add(renderParagraph(p[0], p[1] as string[]));
      });
    },
    { gzip: true },
  );
  const pool: PoolFile = { path, sha256: scanned.sha256, texts: [...unique].sort(compareCodePoints) };
  cache.set(key, pool);
  return pool;
}

/** The tokenized pool (ids of `paragraph + "\n\n"` per paragraph), built on first use and cached on disk. */
export function tokenizedPool(file: PoolFile, tokenizer: Tokenizer): ParagraphPool {
  return poolFromTexts(file.sha256, () => file.texts, tokenizer);
}

/** HotpotQA dev (distractor) records {_id, question, answer, supporting_facts, context: [[title, sentences]]}: the
 *  source RULER-HQA builds its contexts from (and the pool of MemAgent's index-form files); may be gzip-compressed. */
export const hotpotDevFormat: DataFormat = {
  name: 'hotpotqa-dev',
  title: 'HotpotQA dev (distractor) records',
  expected: 'HotpotQA dev records',
  matches: (r) => ['question', 'answer', 'supporting_facts', 'context'].every((k) => k in r),
  raw: true,
  gzip: true,
  command: (d) => `bench run ruler-hqa --data ${d.path}`,
};
