// NIAH strings (protocol data from NVIDIA/RULER@c3f5e3b scripts/data/synthetic/constants.py and niah.py, and
// MemAgent's `input` from BytedTsinghua-SIA/MemAgent@76b7a65 taskutils/memory_data/synthetic/constants.py).

export const NOISE_LINE = 'The grass is green. The sky is blue. The sun is yellow. Here we go. There and back again.';
const PREAMBLE =
  'Some special magic {type} are hidden within the following text. Make sure to memorize it. I will quiz you about the {type} afterwards.';
const QUESTION = 'What are all the special magic {type} for {query} mentioned in the provided text?';
const ANSWER_PREFIX = ' The special magic {type} for {query} mentioned in the provided text are';
/** MemAgent's TASKS['niah']['template']: one line, no {context} slot and no "I will quiz you" sentence (§c.8). */
const MEMAGENT_INPUT =
  'Some special magic {type} are hidden within the following text. Make sure to memorize it. What are all the special magic {type} for {query} mentioned in the provided text?';

/** The needle sentence; the type stays plural (`numbers`, `uuids`) even in single-needle tasks, as upstream. */
export function needleSentence(valueKind: string, key: string, value: string): string {
  return `One of the special magic ${valueKind} for ${key} is: ${value}.`;
}

/** `k1, k2, and k3` (RULER's join: a comma before "and", also for two keys). */
export function joinQueries(queries: readonly string[]): string {
  if (queries.length === 1) return queries[0];
  return `${queries.slice(0, -1).join(', ')}, and ${queries[queries.length - 1]}`;
}

/** RULER's plain substring singularisation, applied to task text only (never to the context). */
function singularise(text: string): string {
  return text
    .replaceAll('Some', 'A')
    .replaceAll('are all', 'is')
    .replaceAll('are', 'is')
    .replaceAll('answers', 'answer');
}

export interface NiahPromptText {
  /** Text before the context, without the newline that separates it from the context. */
  preamble: string;
  /** The question line after the context. */
  question: string;
  /** Assistant prefill (leading space kept). */
  answerPrefix: string;
  /** MemAgent's `input` field: the problem its driver puts in <problem> and in its full-context baseline prompt. */
  memagentInput: string;
}

/** Preamble, question and answer prefix, singularised when exactly one value is asked for (queries × values = 1). */
export function promptText(valueKind: string, queries: readonly string[], valuesPerKey: number): NiahPromptText {
  const single = queries.length * valuesPerKey === 1;
  const type = single ? valueKind.slice(0, -1) : valueKind;
  const query = joinQueries(queries);
  const fix = (t: string) => (single ? singularise(t) : t);
  // Singularise before filling in the type and query, as upstream does on the template.
  const fill = (t: string) => fix(t).split('{type}').join(type).split('{query}').join(query);
  return {
    preamble: fill(PREAMBLE),
    question: fill(QUESTION),
    answerPrefix: fill(ANSWER_PREFIX),
    memagentInput: fill(MEMAGENT_INPUT),
  };
}
