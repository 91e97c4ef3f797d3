// What the builders of vt, cwe, fwe and qa hand to the task wrapper (synthetic-tasks.ts): one sample's prompt
// parts, gold answers, streamed context and facts, sized to a token budget.
import type { EvidenceSpan, Tokenizer } from '../../harness/types.js';
import type { StreamingContext } from './context.js';
import type { SeamCounter, SizingRule } from './sizing.js';
import type { RulerFlavour } from './synthetic-spec.js';
import type { SyntheticPromptParts } from './synthetic-text.js';

export interface SyntheticPlan {
  prompt: SyntheticPromptParts;
  answers: string[];
  context: StreamingContext;
  /** Tokens of the whole one-shot prompt: template with the context, answer prefix included. */
  promptTokens: number;
  /** The size the sizing chose, in the builder's unit. */
  units: number;
  metadata: Record<string, unknown>;
  /** Where the answer's evidence lies (Sample.evidence), where the builder knows it. */
  evidence?: EvidenceSpan[];
}

/** Nothing fits: the smallest prompt plus the generation budget needs this many tokens. */
export interface TooSmall {
  minimumTokens: number;
}

export interface SyntheticEnv {
  tokenizer: Tokenizer;
  seed: number;
  flavour: RulerFlavour;
  seams: SeamCounter;
  tokensToGenerate: number;
}

export interface SyntheticBuilder {
  /** The unit a size counts: 'lines', 'words', 'docs'. */
  readonly unit: string;
  plan(budget: number, index: number, sizing: SizingRule): SyntheticPlan | TooSmall;
  /** RULER's per-sample step down (units) at a budget. */
  rulerStep(budget: number): number;
  /** RULER's once-per-length size when it is not the probe sample's exact size (fwe grows by steps). */
  rulerStart?(budget: number): number;
}

export function isTooSmall(p: SyntheticPlan | TooSmall): p is TooSmall {
  return 'minimumTokens' in p;
}
