// MemAgent's released RULER-HQA files (`eval_{N}.json`, docs/PROTOCOLS.md §b and §h): one JSON list (or JSONL) of
// {context, input, answers, num_docs, index}. Up to 10000 documents `context` is the text; above (12800, 25600, ...)
// it is a list of indices into the sorted unique paragraph pool of the HotpotQA dev file (--pool), rebuilt as
// `Document {i}:\n{paragraph}` blocks joined by blank lines (taskutils/memory_eval/ruler_hqa_over1m.py set_context).
// The driver strips `context` and `input` before use (utils/recurrent.py, utils/openai_api.py); so do we.
import { piecesContext, textContext } from '../../harness/context.js';
import { UserError } from '../../harness/errors.js';
import type {
  ContextSource,
  LengthTarget,
  PreparedTask,
  GeneratedSample,
  TaskEnv,
  Tokenizer,
} from '../../harness/types.js';
import { HeaderCache } from './build.js';
import type { ParagraphPool } from './pool.js';
import { loadPoolFile, tokenizedPool, type PoolFile } from './hotpot-pool.js';
import {
  detectFile,
  refuseOthersOptions,
  wrongTask,
  type DataContext,
  type DataFormat,
  type Detected,
} from '../../harness/data/format.js';
import {
  looksLikeJson,
  readRowAgain,
  rowError,
  scanRows,
  type RowRef,
  type ScannedFile,
} from '../../harness/data/read.js';
import { bucketedTask, isDirectory, listFiles, pyStrip, pyStripEnd, type Entry } from '../../harness/data/source.js';
import {
  MEMAGENT_RULER,
  memagentRulerName,
  prepareMemAgentRuler,
  readsFileOf,
  type MemAgentRulerRules,
} from '../ruler/memagent-data.js';

export const MEMAGENT_HQA_FIELDS = 'context, input, answers, num_docs, index';

interface HqaItem {
  file: ScannedFile;
  ref: RowRef;
  question: string;
  answers: string[];
  numDocs: number;
  devIndex: number | null;
  /** Index form: pool indices in context order. Text form: undefined (the text is read again when built). */
  indices?: Int32Array;
}

function isStringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string');
}

/**
 * Reads MemAgent RULER-HQA files (already detected as such) into a task whose grid is one `docs:N` point per
 * distinct num_docs. Index-form rows need `options.pool`; every index is checked against the pool before any work.
 */
export function prepareMemAgentHqa(
  env: TaskEnv,
  task: string,
  version: string,
  files: string[],
  dataPath: string,
): PreparedTask {
  let pool: PoolFile | undefined;
  const entries: Entry<HqaItem>[] = [];
  const scanned: ScannedFile[] = [];
  const docsFrom = new Map<number, string>();
  let textRows = 0;
  let indexRows = 0;
  for (const path of files) {
    const fileEntries: Entry<Omit<HqaItem, 'file'>>[] = [];
    const file = scanRows(path, (value, ref) => {
      const bad = (what: string) =>
        rowError(path, ref, `${what}; MemAgent's RULER-HQA rows have ${MEMAGENT_HQA_FIELDS}`);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('not a JSON object');
      const r = value as Record<string, unknown>;
      for (const key of ['context', 'input', 'answers', 'num_docs'])
        if (!(key in r)) throw bad(`missing field "${key}"`);
      if (typeof r.input !== 'string') throw bad('field "input" must be a string');
      if (!isStringList(r.answers)) throw bad('field "answers" must be a non-empty list of strings');
      if (!Number.isInteger(r.num_docs) || (r.num_docs as number) < 1)
        throw bad(`field "num_docs" must be a positive integer, got ${JSON.stringify(r.num_docs)}`);
      if (r.index !== undefined && r.index !== null && !Number.isInteger(r.index))
        throw bad(`field "index" must be an integer, got ${JSON.stringify(r.index)}`);
      let indices: Int32Array | undefined;
      if (Array.isArray(r.context)) {
        if (env.options.pool === undefined) {
          throw rowError(
            path,
            ref,
            'field "context" is a list of paragraph indices (MemAgent\'s index form, used above 10000 documents): pass the HotpotQA dev file it indexes with --pool FILE (hotpot_dev_distractor_v1.json)',
          );
        }
        pool ??= loadPoolFile(env.options.pool);
        const size = pool.texts.length;
        indices = new Int32Array(r.context.length);
        r.context.forEach((x, k) => {
          if (!Number.isInteger(x) || (x as number) < 0 || (x as number) >= size) {
            throw rowError(
              path,
              ref,
              `field "context"[${k}] = ${JSON.stringify(x)} is not a paragraph index of --pool ${pool!.path} (${size} paragraphs, indices 0..${size - 1}); was the file built from another HotpotQA file?`,
            );
          }
          indices![k] = x as number;
        });
        if (indices.length === 0) throw bad('field "context" is an empty list');
        indexRows++;
      } else if (typeof r.context === 'string') {
        if (pyStrip(r.context) === '') throw bad('field "context" is empty');
        textRows++;
      } else {
        throw bad('field "context" must be the text or a list of paragraph indices');
      }
      const numDocs = r.num_docs as number;
      fileEntries.push({
        length: { kind: 'docs', value: numDocs, label: `docs:${numDocs}` },
        item: {
          ref,
          question: pyStrip(r.input),
          answers: r.answers,
          numDocs,
          devIndex: (r.index as number | null | undefined) ?? null,
          indices,
        },
      });
    });
    for (const e of fileEntries) {
      const other = docsFrom.get(e.length.value);
      if (other !== undefined && other !== path)
        throw new UserError(`${e.length.label} is in both ${other} and ${path}: pass one file per document count`);
      docsFrom.set(e.length.value, path);
      entries.push({ length: e.length, item: { ...e.item, file } });
    }
    scanned.push(file);
  }

  let headers: HeaderCache | undefined;
  let tokens: ParagraphPool | undefined;
  const contextOf = (item: HqaItem): ContextSource => {
    if (!item.indices) {
      const row = readRowAgain(item.file, item.ref) as { context: string };
      return textContext(pyStrip(row.context), env.tokenizer);
    }
    headers ??= new HeaderCache(env.tokenizer);
    tokens ??= tokenizedPool(pool!, env.tokenizer);
    return indexContext(item.indices, tokens, headers, env.tokenizer);
  };

  const build = (length: LengthTarget, index: number, item: HqaItem): GeneratedSample => ({
    question: item.question,
    answers: item.answers,
    context: contextOf(item),
    metric: 'sub_em',
    metadata: {
      source: item.file.path,
      [item.ref.container === 'jsonl' ? 'line' : 'item']:
        item.ref.container === 'jsonl' ? item.ref.line : item.ref.ordinal,
      dev_index: item.devIndex,
      num_docs: item.numDocs,
      form: item.indices ? 'index' : 'text',
      ...(item.indices ? { documents: item.indices.length, pool_sha256: pool!.sha256 } : {}),
      data_sha256: item.file.sha256,
    },
  });

  const forms = [textRows ? 'text' : '', indexRows ? 'index' : ''].filter(Boolean).join(' + ');
  return bucketedTask(task, entries, build, {
    data: {
      path: dataPath,
      format: `memagent-hqa (${forms} form)`,
      files: scanned.map((f) => ({ path: f.path, format: 'memagent-hqa', sha256: f.sha256, rows: f.rows })),
      ...(pool && indexRows ? { pool: { path: pool.path, sha256: pool.sha256, paragraphs: pool.texts.length } } : {}),
    },
  });
}

/**
 * An index-form context as token pieces: `Document {i}:\n` header ids, then each paragraph's cached ids of
 * `paragraph + "\n\n"`; the last paragraph is encoded on its own without the separator and right-stripped (the
 * driver strips the joined context). Nothing is materialised as text unless a method asks for it.
 */
export function indexContext(
  indices: Int32Array,
  pool: ParagraphPool,
  headers: HeaderCache,
  tokenizer: Tokenizer,
): ContextSource {
  const n = indices.length;
  const lastText = pyStripEnd(pool.texts[indices[n - 1]]);
  const lastIds = tokenizer.encode(lastText);
  let total = headers.total(n) + lastIds.length;
  for (let i = 0; i < n - 1; i++) total += pool.counts[indices[i]];
  const pieces = function* (): Iterable<Uint32Array> {
    for (let i = 0; i < n; i++) {
      yield headers.header(i + 1);
      yield i === n - 1 ? lastIds : pool.ids[indices[i]];
    }
  };
  return {
    ...piecesContext(total, pieces, tokenizer),
    text() {
      const parts: string[] = [];
      for (let i = 0; i < n; i++) parts.push(`Document ${i + 1}:\n${i === n - 1 ? lastText : pool.texts[indices[i]]}`);
      return parts.join('\n\n');
    },
  };
}

/**
 * RULER-HQA's --data: MemAgent's eval files (a file, or a directory of them, e.g. their DATAROOT) are read as they
 * are; a HotpotQA dev file returns undefined, and the task generates its contexts from it as before.
 */
export function readRulerHqaData(
  env: TaskEnv,
  task: string,
  version: string,
  ctx: DataContext,
): PreparedTask | undefined {
  const path = env.options.data;
  if (path === undefined) return undefined;
  let files: string[];
  let ignored: string[] = [];
  let general: Detected[] = [];
  if (isDirectory(path)) {
    const found: Detected[] = [];
    for (const f of listFiles(path, 0)) {
      if (!looksLikeJson(f)) continue;
      // One unreadable file in a data folder is listed as ignored, not fatal: the folder may hold other tools' files.
      try {
        found.push(detectFile(f, ctx.dataFormats));
      } catch (err) {
        if (!(err instanceof UserError)) throw err;
        ignored.push(`${f} (unreadable)`);
      }
    }
    files = found.filter((d) => d.format === 'memagent-hqa').map((d) => d.path);
    // MemAgent's general-driver files of this task (bench generate --format memagent at token lengths), when the
    // folder holds no RULER-HQA file.
    if (files.length === 0) {
      general = found.filter((d) => {
        const named = memagentRulerName(d.path);
        return d.format === MEMAGENT_RULER && named !== undefined && readsFileOf(task, named.task, MEMAGENT_HQA_RULES);
      });
      files = general.map((d) => d.path);
    }
    ignored.push(...found.filter((d) => !files.includes(d.path)).map((d) => `${d.path} (${d.format})`));
    if (files.length === 0)
      throw new UserError(
        `--data ${path} holds no MemAgent RULER-HQA files (JSON rows {context, input, answers, num_docs, index}, e.g. eval_50.json); for a HotpotQA dev file pass the file itself`,
      );
  } else {
    const d = detectFile(path, ctx.dataFormats);
    if (d.format === 'hotpotqa-dev') {
      if (env.options.pool !== undefined)
        throw new UserError(
          `--pool is read only with MemAgent's index-form files; ${path} is a HotpotQA dev file, from which ${task} builds its own contexts`,
        );
      return undefined;
    }
    if (d.format === MEMAGENT_RULER) general = [d];
    else if (d.format !== 'memagent-hqa') throw wrongTask(task, d);
    files = [path];
  }
  if (task === 'ctx-dist')
    throw new UserError(
      "ctx-dist builds its own placements and cannot reorder MemAgent's files: run `bench run ruler-hqa --data ...`",
    );
  if (env.options.placement !== undefined)
    throw new UserError(
      "--placement builds its own contexts; MemAgent's files keep their document order: drop --placement",
    );
  const prepared =
    general.length > 0
      ? prepareMemAgentRuler(env, task, files, path, MEMAGENT_HQA_RULES)
      : prepareMemAgentHqa(env, task, version, files, path);
  if (ignored.length > 0) prepared.data!.ignored = ignored;
  return prepared;
}

/** RULER-HQA rows in MemAgent's general-driver layout: scored sub_em on `answers` (else `outputs`), as ruler_hqa.py. */
const MEMAGENT_HQA_RULES: MemAgentRulerRules = {
  metric: 'sub_em',
  answers: (r) => (Array.isArray(r.answers) ? r.answers : undefined),
  alsoReads: ['ctx-dist'],
};

/** MemAgent's taskutils/memory_data/different_docs_eval.py rows: {context, input, answers, num_docs, index}. */
export const memagentHqaFormat: DataFormat = {
  name: 'memagent-hqa',
  title: "MemAgent's RULER-HQA eval file",
  expected: `MemAgent's RULER-HQA {${MEMAGENT_HQA_FIELDS}}`,
  matches: (r) => ['context', 'input', 'answers', 'num_docs'].every((k) => k in r),
  options: { pool: "MemAgent's index-form RULER-HQA files" },
  command: (d) =>
    `bench run ruler-hqa --data ${d.path}${Array.isArray(d.first.context) ? ' --pool hotpot_dev_distractor_v1.json' : ''}`,
  reader: {
    tasks: (name) => name === 'ruler-hqa' || name === 'ctx-dist',
    read(env, task, ctx) {
      const read = readRulerHqaData(env, task.name, task.version, ctx);
      if (read) return read;
      refuseOthersOptions(env, ctx, undefined, `${task.name} does not use it`, true);
      return undefined;
    },
  },
};
