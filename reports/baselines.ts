// Loads published (paper) numbers shipped under baselines/paper/ for tables and chart overlays.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../harness/errors.js';
import { packageRoot } from '../harness/paths.js';

export interface PaperLength {
  label: string;
  docs: number;
  /** The paper's label read as a token count (7K → 7000, 3.5M → 3500000); where charts place paper points. */
  nominalTokens: number;
  /** Measured mean context tokens (Qwen2.5), or null where the source did not measure it. */
  approxTokens: number | null;
  minTokens: number | null;
  maxTokens: number | null;
}

export interface PaperSeries {
  model: string;
  method: string;
  checkpoint?: string;
  /** Percent (0..100) per entry of `lengths`; null = N/A in the paper. */
  scores: Array<number | null>;
}

export interface PaperFigureValue {
  model: string;
  method: string;
  score: number;
}

export interface PaperFigure {
  id: string;
  task: string;
  length: { label: string; tokens: number };
  readFromFigure: boolean;
  note: string;
  values: PaperFigureValue[];
}

export interface PaperBaseline {
  kind: 'paper-baseline';
  id: string;
  title: string;
  source: { paper: string; arxiv: string; location: string; [key: string]: string };
  task: string;
  metric: string;
  scale: 'percent';
  samplesPerLength: number;
  notes: string[];
  lengths: PaperLength[];
  series: PaperSeries[];
  figures: PaperFigure[];
}

export function paperBaselineDir(): string {
  return join(packageRoot(), 'baselines', 'paper');
}

function validate(value: unknown, file: string): PaperBaseline {
  const b = value as Partial<PaperBaseline>;
  const bad = (what: string) => new UserError(`malformed paper baseline ${file}: ${what}`);
  if (typeof b !== 'object' || b === null || b.kind !== 'paper-baseline') throw bad('"kind" must be "paper-baseline"');
  if (typeof b.task !== 'string' || !Array.isArray(b.lengths) || !Array.isArray(b.series))
    throw bad('needs task, lengths[] and series[]');
  for (const s of b.series) {
    if (!Array.isArray(s.scores) || s.scores.length !== b.lengths.length)
      throw bad(`series ${s.model} needs one score per length`);
    for (const v of s.scores)
      if (v !== null && (typeof v !== 'number' || v < 0 || v > 100))
        throw bad(`series ${s.model} has a score outside 0..100`);
  }
  return { figures: [], notes: [], ...b } as PaperBaseline;
}

/** Loads one paper baseline file (default: the MemAgent RULER-HQA table). */
export function loadPaperBaseline(file = join(paperBaselineDir(), 'memagent-ruler-hqa.json')): PaperBaseline {
  if (!existsSync(file)) throw new UserError(`paper baseline not found: ${file}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UserError(`paper baseline ${file} is not valid JSON: ${(err as Error).message}`);
  }
  return validate(parsed, file);
}

/** Every paper baseline shipped under baselines/paper/. */
export function loadPaperBaselines(dir = paperBaselineDir()): PaperBaseline[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => loadPaperBaseline(join(dir, f)));
}

/** Paper baselines that report the given task. */
export function paperBaselinesFor(task: string, all = loadPaperBaselines()): PaperBaseline[] {
  return all.filter((b) => b.task === task || taskAliases(task).includes(b.task));
}

// Our task names may spell RULER-HQA differently from the paper file.
function taskAliases(task: string): string[] {
  const t = task.toLowerCase().replace(/[_\s]/g, '-');
  if (t === 'ruler-hqa' || t === 'hqa' || t === 'rulerhqa' || t === 'hotpotqa') return ['ruler-hqa'];
  return [t];
}

export interface PaperPoint {
  lengthLabel: string;
  docs: number;
  tokens: number;
  /** Percent 0..100. */
  score: number;
}

/** One curve per paper series, skipping N/A lengths. */
export function paperCurves(b: PaperBaseline): Array<{ model: string; method: string; points: PaperPoint[] }> {
  return b.series.map((s) => ({
    model: s.model,
    method: s.method,
    points: b.lengths.flatMap((l, i) => {
      const score = s.scores[i];
      return score === null ? [] : [{ lengthLabel: l.label, docs: l.docs, tokens: l.nominalTokens, score }];
    }),
  }));
}
