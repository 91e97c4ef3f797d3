// `bench generate --format native`: every Sample field, context last; all lengths in the one file --out. The
// harness's own layout, so it is in every catalog (harness/registry/family.ts).
import type { GenerateLayout } from './generate-layout.js';
import { contextText, streamed } from './generate-layout.js';

export const nativeGenerateLayout: GenerateLayout = {
  name: 'native',
  rank: 100,
  rows: 'every field of our samples',
  path: (out) => out,
  row: (sample) => [
    ['id', sample.id],
    ['task', sample.task],
    ['task_version', sample.taskVersion],
    ['length', sample.length],
    ['index', sample.index],
    ['question', sample.question],
    ['answers', sample.answers],
    ['metric', sample.metric],
    ['scoring', sample.scoring ?? null],
    ['prompt', sample.prompt ?? null],
    ['context_tokens', sample.context.tokenCount],
    ['metadata', sample.metadata],
    ['context', streamed(contextText(sample.context))],
  ],
};
