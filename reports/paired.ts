// Paired differences between two methods, models or runs over the sample ids they share: per task × length, the
// difference B − A with its paired bootstrap interval, an exact McNemar (0/1 scores) or sign-flip p-value, and a
// Holm correction across the rows shown. Used by `bench report`, `bench compare` and `bench gate --paired`.
import { UserError } from '../harness/errors.js';
import type { SampleRecord } from '../harness/types.js';
import { holmAdjust } from './stats/holm.js';
import { pairedDifference, type PairedTest } from './stats/paired.js';
import { shortModel } from './labels.js';
import { isReferenceReaderId } from './format.js';

/** Family-wise error rate of the Holm correction unless a command is told otherwise. */
export const DEFAULT_ALPHA = 0.05;

/** One side of a comparison at one task × length. */
export interface Side {
  /** How tables name this side: the method, the model, a run directory, or "method · model". */
  label: string;
  method: string;
  model: string;
  /** Samples of this side at this task × length (shared or not). */
  n: number;
  /** Mean headline score over all n (errored samples as 0): the summary row's score. */
  score: number;
}

export interface DiffRow {
  task: string;
  lengthKind: SampleRecord['lengthKind'];
  length: number;
  lengthLabel: string;
  metric: string;
  a: Side;
  b: Side;
  /** Sample ids present on both sides; the paired statistics use these only. */
  shared: number;
  /** shared > 0. */
  paired: boolean;
  /** Paired: means over the shared ids. Unpaired: the sides' scores. */
  scoreA: number;
  scoreB: number;
  /** scoreB − scoreA (fractions). */
  diff: number;
  /** Paired bootstrap 95% interval of diff; null when unpaired. */
  ci95_low: number | null;
  ci95_high: number | null;
  /** 'mcnemar-exact' when every paired score is 0 or 1, else 'sign-flip'; null when unpaired. */
  test: PairedTest | null;
  /** Two-sided p-value; null when unpaired. */
  p: number | null;
  /** 0/1 scores: shared ids right only under A, and only under B. */
  onlyA?: number;
  onlyB?: number;
  /** Holm-adjusted p across the paired rows it was computed with (applyHolm); null when unpaired. */
  pHolm: number | null;
  /** pHolm ≤ alpha. */
  significant: boolean;
  /** Ids both sides hold whose samples differ (another seed, data file, task version, question or answers): not
   *  paired, not counted in `shared` (pairRuns). */
  otherContent?: number;
}

/** A record's contribution to its group's headline score: errored samples count as 0, as in the summary. */
export function recordValue(r: Pick<SampleRecord, 'status' | 'score'>): number {
  return r.status === 'error' || typeof r.score !== 'number' || !Number.isFinite(r.score) ? 0 : r.score;
}

interface Group {
  task: string;
  lengthKind: SampleRecord['lengthKind'];
  length: number;
  lengthLabel: string;
  metric: string;
  byId: Map<string, SampleRecord>;
}

function positionKey(r: Pick<SampleRecord, 'task' | 'lengthKind' | 'length' | 'lengthLabel'>): string {
  return [r.task, r.lengthKind, r.length, r.lengthLabel].join('\u0000');
}

function side(label: string, g: Group): Side {
  const records = [...g.byId.values()];
  return {
    label,
    method: records[0].method,
    model: records[0].model,
    n: records.length,
    score: records.reduce((s, r) => s + recordValue(r), 0) / records.length,
  };
}

function mean(values: number[]): number {
  return values.reduce((s, v) => s + v, 0) / values.length;
}

/** The row for sides A and B (the same task × length), paired over the ids both hold whose samples are the same. */
function diffRow(
  aLabel: string,
  a: Group,
  bLabel: string,
  b: Group,
  same?: (x: SampleRecord, y: SampleRecord) => boolean,
): DiffRow {
  const A = side(aLabel, a);
  const B = side(bLabel, b);
  const both = [...a.byId.keys()].filter((id) => b.byId.has(id));
  const ids = (same ? both.filter((id) => same(a.byId.get(id)!, b.byId.get(id)!)) : both).sort();
  const otherContent = both.length - ids.length;
  const base = {
    task: a.task,
    lengthKind: a.lengthKind,
    length: a.length,
    lengthLabel: a.lengthLabel,
    metric: a.metric === b.metric ? a.metric : `${a.metric}/${b.metric}`,
    a: A,
    b: B,
    shared: ids.length,
    pHolm: null,
    significant: false,
    ...(otherContent > 0 ? { otherContent } : {}),
  };
  if (ids.length === 0) {
    return {
      ...base,
      paired: false,
      scoreA: A.score,
      scoreB: B.score,
      diff: B.score - A.score,
      ci95_low: null,
      ci95_high: null,
      test: null,
      p: null,
    };
  }
  const av = ids.map((id) => recordValue(a.byId.get(id)!));
  const bv = ids.map((id) => recordValue(b.byId.get(id)!));
  const d = pairedDifference(av, bv, [
    'bench-paired',
    a.task,
    a.lengthKind,
    a.length,
    a.lengthLabel,
    A.method,
    A.model,
    B.method,
    B.model,
  ]);
  return {
    ...base,
    paired: true,
    scoreA: mean(av),
    scoreB: mean(bv),
    diff: d.diff,
    ci95_low: d.ci95_low,
    ci95_high: d.ci95_high,
    test: d.test,
    p: d.p,
    ...(d.onlyA === undefined ? {} : { onlyA: d.onlyA, onlyB: d.onlyB }),
  };
}

/** Groups records by `seriesOf(record)` and task × length; within a group, the last record of an id wins. */
function groupBy(
  records: Iterable<SampleRecord>,
  seriesOf: (r: SampleRecord) => string | null,
): Map<string, Map<string, Group>> {
  const out = new Map<string, Map<string, Group>>();
  for (const r of records) {
    const series = seriesOf(r);
    if (series === null) continue;
    let groups = out.get(series);
    if (!groups) out.set(series, (groups = new Map()));
    const key = positionKey(r);
    let g = groups.get(key);
    if (!g)
      groups.set(
        key,
        (g = {
          task: r.task,
          lengthKind: r.lengthKind,
          length: r.length,
          lengthLabel: r.lengthLabel,
          metric: r.metric,
          byId: new Map(),
        }),
      );
    g.byId.delete(r.id);
    g.byId.set(r.id, r);
  }
  return out;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Row order: task, then the pair (A, B labels), then length kind and numeric length. */
export function compareDiffRows(x: DiffRow, y: DiffRow): number {
  return (
    cmp(x.task, y.task) ||
    cmp(x.a.label, y.a.label) ||
    cmp(x.b.label, y.b.label) ||
    cmp(x.lengthKind, y.lengthKind) ||
    x.length - y.length ||
    cmp(x.lengthLabel, y.lengthLabel)
  );
}

/**
 * `bench report`: every two series (method × model) at the same task × length that share sample ids and differ in
 * exactly one of method and model (methods are compared within a model, models within a method). A is the series
 * that sorts first (method, then model, in code-point order), so e.g. memagent vs full-context reads memagent −
 * full-context. Pairs with no shared id are left out.
 */
export function pairSeries(records: Iterable<SampleRecord>): DiffRow[] {
  const list = [...records];
  const models = new Set(list.map((r) => r.model));
  const methods = new Set(list.map((r) => r.method));
  const label = (method: string, model: string) =>
    models.size === 1
      ? method
      : methods.size === 1
        ? shortModel(model, isReferenceReaderId(model))
        : `${method} · ${shortModel(model, isReferenceReaderId(model))}`;
  const bySeries = groupBy(list, (r) => `${r.method}\u0000${r.model}`);
  const series = [...bySeries.keys()].sort();
  const rows: DiffRow[] = [];
  for (let i = 0; i < series.length; i++) {
    for (let j = i + 1; j < series.length; j++) {
      const [ma, mo] = series[i].split('\u0000');
      const [mb, mob] = series[j].split('\u0000');
      if ((ma === mb) === (mo === mob)) continue; // the same series, or both method and model differ
      const ga = bySeries.get(series[i])!;
      const gb = bySeries.get(series[j])!;
      for (const [key, a] of ga) {
        const b = gb.get(key);
        if (!b) continue;
        const row = diffRow(label(ma, mo), a, label(mb, mob), b);
        if (row.paired) rows.push(row);
      }
    }
  }
  return rows.sort(compareDiffRows);
}

/**
 * `bench compare RUN --methods A,B`: method A against method B within one run, per task × model × length. Rows
 * whose two methods share no id are kept, unpaired.
 */
export function pairMethods(records: Iterable<SampleRecord>, methodA: string, methodB: string): DiffRow[] {
  if (methodA === methodB) throw new UserError(`--methods needs two different methods, got ${methodA} twice`);
  const list = [...records];
  const models = new Set(list.map((r) => r.model));
  const label = (method: string, model: string) =>
    models.size === 1 ? method : `${method} · ${shortModel(model, isReferenceReaderId(model))}`;
  const by = groupBy(list, (r) =>
    r.method === methodA || r.method === methodB ? `${r.method}\u0000${r.model}` : null,
  );
  for (const m of [methodA, methodB]) {
    if (![...by.keys()].some((k) => k.startsWith(`${m}\u0000`))) {
      throw new UserError(
        `method '${m}' has no samples in this run (it has: ${[...new Set(list.map((r) => r.method))].sort().join(', ') || 'none'})`,
      );
    }
  }
  const rows: DiffRow[] = [];
  for (const model of [...models].sort()) {
    const ga = by.get(`${methodA}\u0000${model}`);
    const gb = by.get(`${methodB}\u0000${model}`);
    if (!ga || !gb) continue;
    for (const [key, a] of ga) {
      const b = gb.get(key);
      if (b) rows.push(diffRow(label(methodA, model), a, label(methodB, model), b));
    }
  }
  return rows.sort(compareDiffRows);
}

/**
 * What decides a run's samples besides their id, from its manifest: the seed (NIAH needles, RULER-HQA distractors)
 * and the sha256 of each task's --data files. Undefined parts are unknown (no manifest) and not compared.
 */
export interface RunContent {
  seed?: number;
  /** Task → the sha256 of its --data file(s), joined; a task absent here read the bundled data. */
  data?: Record<string, string>;
}

/** A run's RunContent from its manifest (null: no manifest, nothing known). */
export function runContent(
  manifest: { seed?: unknown; data?: { files?: Array<{ task: string; sha256: string }> } } | null | undefined,
): RunContent {
  if (!manifest) return {};
  const data: Record<string, string> = {};
  for (const f of manifest.data?.files ?? []) data[f.task] = data[f.task] ? `${data[f.task]}+${f.sha256}` : f.sha256;
  return { ...(typeof manifest.seed === 'number' ? { seed: manifest.seed } : {}), data };
}

const short = (sha: string | undefined) => (sha === undefined ? 'the bundled data' : `sha256 ${sha.slice(0, 12)}`);

/** Why two runs' samples of one id differ, in the user's terms ("--seed (A 42, B 7)"); [] when nothing known differs. */
export function contentDifferences(a: RunContent, b: RunContent, tasks?: Iterable<string>): string[] {
  const out: string[] = [];
  if (a.seed !== undefined && b.seed !== undefined && a.seed !== b.seed) out.push(`--seed (A ${a.seed}, B ${b.seed})`);
  if (a.data && b.data) {
    const names = [...new Set(tasks ?? [...Object.keys(a.data), ...Object.keys(b.data)])].sort();
    for (const t of names)
      if (a.data[t] !== b.data[t]) out.push(`--data of ${t} (A ${short(a.data[t])}, B ${short(b.data[t])})`);
  }
  return out;
}

/** Whether A's and B's records of one id are the same sample: task version, question, answers, seed and data. */
export function sameSampleRule(a: RunContent = {}, b: RunContent = {}): (x: SampleRecord, y: SampleRecord) => boolean {
  const seedDiffers = a.seed !== undefined && b.seed !== undefined && a.seed !== b.seed;
  return (x, y) =>
    !seedDiffers &&
    (a.data === undefined || b.data === undefined || a.data[x.task] === b.data[y.task]) &&
    x.taskVersion === y.taskVersion &&
    x.question === y.question &&
    JSON.stringify(x.answers) === JSON.stringify(y.answers);
}

export interface RunPairing {
  rows: DiffRow[];
  /** "task / method / length" held only by A, or only by B. */
  onlyA: string[];
  onlyB: string[];
  /** Ids both runs hold whose samples differ (sameSampleRule), over all rows: not paired. */
  otherContent: number;
}

/**
 * Two runs (A the baseline, B the candidate): per task × method × length both hold, B against A over the ids they
 * share (unpaired when none). The model is not part of the key, so two models' runs compare; each run must hold one
 * model per task × method × length. `methods` keeps only those methods. An id pairs only when both runs hold the same
 * sample under it (sameSampleRule with the runs' `content`): runs of another seed or data file hold other samples
 * (NIAH: other needles) under the same ids, and their rows are compared unpaired.
 */
export function pairRuns(
  aRecords: Iterable<SampleRecord>,
  bRecords: Iterable<SampleRecord>,
  options: {
    aLabel?: string;
    bLabel?: string;
    methods?: string[];
    content?: { a: RunContent; b: RunContent };
  } = {},
): RunPairing {
  const same = sameSampleRule(options.content?.a, options.content?.b);
  const keep = options.methods ? new Set(options.methods) : null;
  const seriesOf = (r: SampleRecord) => (keep && !keep.has(r.method) ? null : r.method);
  const checkOneModel = (records: Iterable<SampleRecord>, which: string) => {
    const seen = new Map<string, string>();
    for (const r of records) {
      const key = `${positionKey(r)}\u0000${r.method}`;
      const other = seen.get(key);
      if (other !== undefined && other !== r.model)
        throw new UserError(
          `${which} holds two models for ${r.task} / ${r.method} / ${r.lengthLabel} (${other}, ${r.model}); compare one model per run`,
        );
      seen.set(key, r.model);
    }
  };
  const aList = [...aRecords];
  const bList = [...bRecords];
  checkOneModel(aList, options.aLabel ?? 'A');
  checkOneModel(bList, options.bLabel ?? 'B');
  const A = groupBy(aList, seriesOf);
  const B = groupBy(bList, seriesOf);
  const rows: DiffRow[] = [];
  const onlyA: string[] = [];
  const onlyB: string[] = [];
  const name = (method: string, g: Group) => `${g.task} / ${method} / ${g.lengthLabel}`;
  for (const [method, ga] of A) {
    const gb = B.get(method);
    for (const [key, a] of ga) {
      const b = gb?.get(key);
      if (b) rows.push(diffRow(method, a, method, b, same));
      else onlyA.push(name(method, a));
    }
  }
  for (const [method, gb] of B) for (const [key, b] of gb) if (!A.get(method)?.has(key)) onlyB.push(name(method, b));
  const otherContent = rows.reduce((n, r) => n + (r.otherContent ?? 0), 0);
  return { rows: rows.sort(compareDiffRows), onlyA: onlyA.sort(), onlyB: onlyB.sort(), otherContent };
}

/** Holm-adjusts the p-values of the paired rows (one family: all of them) and marks those ≤ alpha significant. In place. */
export function applyHolm<T extends DiffRow>(rows: T[], alpha = DEFAULT_ALPHA): T[] {
  const paired = rows.filter((r) => r.p !== null);
  const adjusted = holmAdjust(paired.map((r) => r.p as number));
  paired.forEach((r, i) => {
    r.pHolm = adjusted[i];
    r.significant = adjusted[i] <= alpha;
  });
  for (const r of rows)
    if (r.p === null) {
      r.pHolm = null;
      r.significant = false;
    }
  return rows;
}
