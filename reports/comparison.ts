// Our rows beside a paper table, in the paper's columns.
import type { PaperBaseline } from './baselines.js';
import { fmtScore, fmt2 } from './format.js';
import { shortModel } from './labels.js';
import type { SummaryRow } from './summary.js';
import { fmtCount } from './completeness.js';

export interface ComparisonLine {
  source: 'ours' | 'paper';
  name: string;
  /** Display strings (×100, 2 decimals) per paper column; null = not run / N/A. */
  values: Array<string | null>;
}

export interface Comparison {
  title: string;
  sourceNote: string;
  columns: string[];
  lines: ComparisonLine[];
  matchNote: string;
}

/**
 * Places our rows of the baseline's task in its length columns: docs:N rows by document count; token rows only
 * where their label equals the paper's (e.g. "7k" = "7K"), since 8K ≠ 7K.
 */
export function comparison(rows: SummaryRow[], b: PaperBaseline): Comparison {
  const ours = rows.filter((r) => r.task === b.task);
  const keys = [...new Set(ours.map((r) => `${r.method}\u0000${r.model}`))];
  const lines: ComparisonLine[] = keys.map((key) => {
    const group = ours.filter((r) => `${r.method}\u0000${r.model}` === key);
    return {
      source: 'ours',
      name: `${group[0].method} · ${shortModel(group[0].model, group[0].isReferenceReader)}`,
      values: b.lengths.map((l) => {
        const hit = group.find((r) =>
          r.lengthKind === 'docs' ? r.length === l.docs : r.lengthLabel.toLowerCase() === l.label.toLowerCase(),
        );
        return hit ? `${fmtScore(hit)} (n=${fmtCount(hit)})` : null;
      }),
    };
  });
  // A line of ours with no value in any column says nothing; name its lengths in the note instead.
  const unmatched = [
    ...new Set(
      keys.flatMap((key, i) =>
        lines[i].values.every((v) => v === null)
          ? ours.filter((r) => `${r.method}\u0000${r.model}` === key).map((r) => r.lengthLabel)
          : [],
      ),
    ),
  ];
  const matched = lines.filter((l) => l.values.some((v) => v !== null));
  for (const s of b.series)
    matched.push({
      source: 'paper',
      name: `${s.model} (${s.method})`,
      values: s.scores.map((v) => (v === null ? null : fmt2(v))),
    });
  const byDocs = b.lengths.some((l) => l.docs > 0);
  const rule = byDocs
    ? "Ours: docs:N runs in the column with N documents; token-length runs only where the label matches the paper's."
    : "Ours: runs in the column whose label matches their length's (8k = 8K).";
  return {
    title: b.title,
    sourceNote: `${b.source.paper}, arXiv ${b.source.arxiv}, ${b.source.location}; ${b.samplesPerLength} questions per length.`,
    // Token-length tables (RULER's) have no document counts.
    columns: b.lengths.map((l) => (l.docs > 0 ? `${l.label} (${l.docs} docs)` : l.label)),
    lines: matched,
    matchNote: unmatched.length
      ? `${rule} Our ${unmatched.join(', ')} results match no column and are left out${byDocs ? " (run --lengths docs:50..25600, the paper's document counts, to compare)" : ''}.`
      : rule,
  };
}
