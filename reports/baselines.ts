// Loads published (paper) numbers shipped under baselines/paper/ for tables and chart overlays. Which of our tasks a
// table reports, and which table places docs:N lengths on the charts' axis, the families' report facets say
// (harness/report/facet.ts PaperOverlay).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../harness/errors.js';
import { packageRoot } from '../harness/paths.js';
import type { ReportFacet } from '../harness/report/facet.js';
import type { PaperBaseline, PaperLength } from '../harness/report/paper.js';
import { jsonProblem } from './regression.js';

export type {
  PaperBaseline,
  PaperFigure,
  PaperFigureValue,
  PaperLength,
  PaperSeries,
} from '../harness/report/paper.js';

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

/** Loads one paper baseline file. */
export function loadPaperBaseline(file: string): PaperBaseline {
  if (!existsSync(file)) throw new UserError(`paper baseline not found: ${file}`);
  const text = readFileSync(file, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UserError(`paper baseline ${file} is not valid JSON: ${jsonProblem(text, err)}`);
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

/** Paper baselines that report the given task: the same name (case, '_' and spaces aside) or a facet's alias. */
export function paperBaselinesFor(
  task: string,
  all: readonly PaperBaseline[],
  facets: readonly ReportFacet[],
): PaperBaseline[] {
  const names = [task.toLowerCase().replace(/[_\s]/g, '-')];
  for (const f of facets) {
    const alias = f.paper?.paperTask?.(task);
    if (alias !== undefined) names.push(alias);
  }
  return all.filter((b) => b.task === task || names.includes(b.task));
}

/** docs → paper label and tokens, from the facets whose paper table places docs:N lengths; [] when none does. */
export function paperLengthTable(facets: readonly ReportFacet[]): PaperLength[] {
  return facets.flatMap((f) => f.paper?.lengthTable?.() ?? []);
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
