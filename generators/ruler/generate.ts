// `bench generate --format ruler`: {index, input, outputs, length, answer_prefix?} (NVIDIA/RULER data files: `input`
// is the whole prompt before the answer prefix; `length` = tokens of input + answer prefix + the generation budget),
// one file per length as RULER lays them out: OUT/<tokens>/data/<task>/validation.jsonl, where OUT stands for
// RULER's <root>/<model>/synthetic (scripts/run.sh; pred/call_api.py reads <data_dir>/<task>/validation.jsonl with
// --data_dir OUT/<tokens>/data).
import { join } from 'node:path';
import { UserError } from '../../harness/errors.js';
import {
  concat,
  contextText,
  streamed,
  taskFolder,
  type GenerateLayout,
} from '../../harness/formats/generate-layout.js';
import { fillTemplate, FULL_CONTEXT_PHRASE } from '../../harness/methods/templates.js';
import type { Sample, Tokenizer } from '../../harness/types.js';

/** The one-shot prompt around the context, split at the context: RULER's `input` is before + context + after. */
function promptFrame(sample: Sample): { before: string; after: string } {
  const template = sample.prompt?.nativeTemplate ?? sample.prompt?.fullContext ?? FULL_CONTEXT_PHRASE;
  const marker = '\u0000';
  const filled = fillTemplate(template, { question: sample.question.trim(), context: marker });
  const at = filled.indexOf(marker);
  if (at < 0) throw new Error(`task ${sample.task}: its prompt template has no {context} placeholder`);
  return { before: filled.slice(0, at), after: filled.slice(at + marker.length) };
}

function promptTokens(sample: Sample, tokenizer: Tokenizer, before: string, after: string): number {
  const known = sample.metadata.prompt_tokens;
  if (typeof known === 'number') return known;
  return tokenizer.count(before + sample.context.text() + after + (sample.prompt?.answerPrefix ?? ''));
}

export const rulerGenerateLayout: GenerateLayout = {
  name: 'ruler',
  rank: 10,
  peer: "RULER's",
  rows: "RULER's input/outputs/length rows",
  perLength: 'DIR/<tokens>/data/<task>/validation.jsonl',
  path(out, task, length) {
    if (length.kind !== 'tokens') {
      throw new UserError(
        `--format ruler lays data out by token length (OUT/<tokens>/data/<task>/validation.jsonl, as RULER's run.sh); ${length.label} is not a token length: use --format ${length.kind === 'native' ? 'native' : 'memagent or native'}`,
      );
    }
    return join(out, String(length.value), 'data', taskFolder(task), 'validation.jsonl');
  },
  // RULER's own prompt is what `bench run niah_* --data` splits back into haystack and question; a task without one
  // (ruler-hqa's documents) would leave a file no reader takes.
  check(sample) {
    if (sample.prompt?.nativeTemplate === undefined)
      throw new UserError(
        `--format ruler writes RULER's own prompt, which only RULER's tasks (niah_*) have; ${sample.task} has none: use --format memagent or native`,
      );
  },
  row(sample, tokenizer) {
    const { before, after } = promptFrame(sample);
    const maxNew = sample.prompt?.maxNewTokens ?? 1024;
    const row: Array<[string, unknown]> = [
      ['index', sample.index],
      ['input', streamed(concat([before], contextText(sample.context), [after]))],
      ['outputs', sample.answers],
      ['length', promptTokens(sample, tokenizer, before, after) + maxNew],
    ];
    if (sample.prompt?.answerPrefix !== undefined) row.push(['answer_prefix', sample.prompt.answerPrefix]);
    return row;
  },
};
