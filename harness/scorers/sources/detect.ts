// Recognises which tool wrote a JSONL line.
export type SourceFormat = 'run' | 'memagent' | 'ruler' | 'longbench';

export const FORMAT_HINT =
  'expected a bench run directory (samples.jsonl), LongBench pred files (pred, answers, all_classes, length), ' +
  'RULER pred files (index, pred, outputs) or MemAgent result files (response, pred, judge_sub_em)';

/** The format a parsed line belongs to, or null when it matches none. */
export function detectLine(v: Record<string, unknown>): SourceFormat | null {
  if (
    typeof v.id === 'string' &&
    typeof v.task === 'string' &&
    typeof v.method === 'string' &&
    typeof v.metric === 'string' &&
    'status' in v
  )
    return 'run';
  if ('judge_sub_em' in v && ('response' in v || 'pred' in v)) return 'memagent';
  if ('pred' in v && ('outputs' in v || 'output' in v) && 'index' in v) return 'ruler';
  if ('pred' in v && Array.isArray(v.answers)) return 'longbench';
  return null;
}
