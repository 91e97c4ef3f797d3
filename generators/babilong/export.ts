// `bench export --format babilong`: DIR/<model>__<method>/<task>_<length>_<cfg>.csv with target, output, question
// (pandas to_csv's layout, index column first) and the .json of prompt parts beside each, as run_model_on_babilong.py
// writes a model's folder of babilong_evals; babilong/collect_results.py --model_name <model>__<method>
// --evals_path DIR reads it.
import { join } from 'node:path';
import { UserError } from '../../harness/errors.js';
import { exportName, isScoredStatus, type ExportLayout, type PlacedRow } from '../../harness/formats/export-layout.js';
import { pyStrip } from '../../harness/protocol/pytext.js';
import { stripSpecialTokens } from '../../harness/protocol/special-tokens.js';
import type { SampleRecord } from '../../harness/types.js';
import { BABILONG_METRIC } from './index.js';
import { TASK_LABELS } from './metrics.js';
import { formattedTemplate, promptParts, userTemplate, type PromptSwitches } from './prompts.js';
import { PANDAS_NA_VALUES } from './published-csv.js';

function babilongTask(r: SampleRecord): string | null {
  const task = r.metadata.babilong_task;
  return r.metric === BABILONG_METRIC && typeof task === 'string' && TASK_LABELS[task] ? task : null;
}

function metaString(r: SampleRecord, key: string): string {
  const v = r.metadata[key];
  if (typeof v !== 'string' || v === '')
    throw new UserError(
      `${r.id} (${r.method}): no '${key}' in its metadata; rerun it with this bench to export it for BABILong`,
    );
  return v;
}

/** What the run's metric scored: the raw output, special tokens removed and stripped; '' for a failed sample. */
function scoredOutput(r: SampleRecord): string {
  if (!isScoredStatus(r.status)) return '';
  const out = pyStrip(stripSpecialTokens(r.rawOutput));
  // read_csv would read "None" or "NA" back as missing (''); a trailing space keeps it a string and changes no label.
  return out !== '' && PANDAS_NA_VALUES.has(out) ? `${out} ` : out;
}

function place(r: SampleRecord): PlacedRow {
  const task = babilongTask(r)!;
  const file = `${task}_${metaString(r, 'babilong_length')}_${metaString(r, 'prompt_cfg')}.csv`;
  const question = typeof r.scoring?.question === 'string' ? r.scoring.question : r.question;
  return {
    rel: join(exportName(r), file),
    row: [
      ['target', r.answers[0] ?? ''],
      ['output', scoredOutput(r)],
      ['question', question],
    ],
  };
}

/** A field as Python's csv writer (QUOTE_MINIMAL, pandas to_csv) writes it. */
function csvField(v: unknown): string {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** pandas `to_csv(path)`: an unnamed index column, then the columns, one row a line. */
function toCsv(rows: ReadonlyArray<PlacedRow['row']>): string {
  const header = ['', ...rows[0].map(([k]) => k)];
  const lines = [header.map(csvField).join(',')];
  rows.forEach((row, i) => lines.push([String(i), ...row.map(([, v]) => csvField(v))].join(',')));
  return lines.join('\n') + '\n';
}

/** The switches a file's run configuration names (instruction_yes_examples_yes_post_prompt_yes …). */
function switchesOf(cfg: string): PromptSwitches {
  const on = (part: string) => new RegExp(`(^|_)${part}_yes(_|$)`).test(cfg);
  return { instruction: on('instruction'), examples: on('examples'), post_prompt: on('post_prompt') };
}

/** The .json run_model_on_babilong.py writes beside each CSV: the prompt parts and the template joining them. */
function promptJson(rel: string, r: SampleRecord): Array<{ rel: string; text: string }> {
  const task = babilongTask(r)!;
  const parts = promptParts(task, switchesOf(metaString(r, 'prompt_cfg')));
  const template = formattedTemplate(
    { instruction: '{instruction}', examples: '{examples}', post_prompt: '{post_prompt}' },
    userTemplate(),
  );
  const body = { prompt: { ...parts, template }, bench: { method: r.method, model: r.model } };
  return [{ rel: rel.replace(/\.csv$/, '.json'), text: JSON.stringify(body, null, 4) + '\n' }];
}

export const babilongExportLayout: ExportLayout = {
  name: 'babilong',
  rank: 40,
  label: 'BABILong',
  reader: "BABILong's collect_results.py",
  help: 'DIR/<model>__<method>/<task>_<length>_<cfg>.csv (+ .json)   (booydar/babilong collect_results.py)',
  fits: 'BABILong tasks (qa1 ... qa20)',
  failedNote: ': an empty output column, which compare_answers counts wrong',
  misfit: (r) => (babilongTask(r) === null ? 'not a BABILong task' : null),
  place,
  serialize: toCsv,
  companions: promptJson,
  peerCommands(result) {
    const tasks = [...new Set(result.files.map((f) => f.task))].join(' ');
    return result.names.map(
      (name) =>
        `python -m babilong.collect_results --model_name ${name} --evals_path ${result.out} --tasks ${tasks}   # in a booydar/babilong checkout`,
    );
  },
};
