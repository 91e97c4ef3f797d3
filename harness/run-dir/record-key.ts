// The key of a sample record: `${id}#${method}`, e.g. "ruler-hqa/32k/7#memagent".
//
// Why this key, and why the model is not in it:
// - A sample id is `${task}/${length label}/${index}` (sampleId below). The runner sets it on every sample it runs,
//   whatever id the generator gave (harness/runner/sample-identity.ts), so id + method names one unit of work of a
//   run. The runner keys its units by it before any record exists (units.ts unitKey), resume
//   looks finished samples up by it (RunDir.finished), checkpoint files are named by its hash, and bench merge drops
//   a shard's sample whose key an earlier shard already had.
// - A run directory holds exactly one model: the model is part of the run identity, and RunDir.open refuses to
//   resume into a directory made with another (merge likewise refuses shards of different runs). So within one
//   run directory the model adds nothing, and the runner could not supply it when it names its units.
// - Readers that may see several models at once — bench report over several run directories, bench score of a
//   samples file that was not necessarily written by one run — keep one record per (model, key): modelRecordKey.
//   Records are re-scored and grouped by model there, so two models' copies of a sample must not replace each other.
// In every reader a record written again (a resumed or --retry-errors rerun) replaces the earlier one with its key.
// Ids and method names hold no '#' and model names no NUL, so both keys are unambiguous.

/** The id of a task's sample at a length and index, as the runner sets it, e.g. "ruler-hqa/32k/7". */
export function sampleId(task: string, lengthLabel: string, index: number): string {
  return `${task}/${lengthLabel}/${index}`;
}

export interface Keyed {
  id: string;
  method: string;
}

/** `${id}#${method}`: a sample record's key within one run directory. */
export function recordKey(r: Keyed): string {
  return `${r.id}#${r.method}`;
}

/** The record key qualified by the model, for readers that may hold several models' records. */
export function modelRecordKey(r: Keyed & { model: string }): string {
  return `${r.model}\u0000${recordKey(r)}`;
}
