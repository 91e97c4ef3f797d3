// `bench generate --format memagent`: {index, input, context, answers, outputs, answer_prefix?, length} (MemAgent's
// taskutils/memory_eval: ruler_general.py reads `context`, `input`, `outputs`; ruler_hqa.py reads `answers`; `length`
// = context tokens), one file per length as MemAgent names them under its DATAROOT: OUT/eval_<N>.json for ruler-hqa
// at docs:N (ruler_hqa.py), OUT/eval_<task>_<tokens>.json otherwise (ruler_general.py). The files hold JSON Lines,
// which the scripts' load_dataset("json", ...) reads as it reads a JSON list.
import { join } from 'node:path';
import { UserError } from '../../harness/errors.js';
import { contextText, streamed, taskFolder, type GenerateLayout } from '../../harness/formats/generate-layout.js';

export const memagentGenerateLayout: GenerateLayout = {
  name: 'memagent',
  rank: 20,
  peer: "MemAgent's",
  rows: "MemAgent's context/input/answers rows",
  perLength: 'DIR/eval_<N>.json or DIR/eval_<task>_<tokens>.json',
  path(out, task, length) {
    if (length.kind === 'native')
      throw new UserError(
        `--format memagent lays data out by length (MemAgent's eval_<N>.json / eval_<task>_<length>.json), and ${task} keeps its documents' own lengths: use --format native`,
      );
    if (length.kind === 'docs' && task === 'ruler-hqa') return join(out, `eval_${length.value}.json`);
    return join(out, `eval_${taskFolder(task)}_${length.value}.json`);
  },
  row: (sample) => [
    ['index', sample.index],
    ['input', sample.question],
    ['context', streamed(contextText(sample.context))],
    ['answers', sample.answers],
    ['outputs', sample.answers],
    // MemAgent's RULER rows store the answer prefix (ruler_data_prepare.py; its driver never sends it).
    ...(sample.task !== 'ruler-hqa' && sample.prompt?.answerPrefix !== undefined
      ? [['answer_prefix', sample.prompt.answerPrefix] as [string, unknown]]
      : []),
    ['length', sample.context.tokenCount],
    // ruler_hqa.py's eval_<N>.json rows carry their document count (and `bench run ruler-hqa --data` reads it).
    ...(sample.length.kind === 'docs' ? [['num_docs', sample.length.value] as [string, unknown]] : []),
  ],
};
