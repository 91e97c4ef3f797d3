// RULER's non-NIAH tasks (docs/PROTOCOLS.md §c.7, §c.9): vt, cwe, fwe, qa_1, qa_2 under RULER's names, with the
// parameters of MemAgent's taskutils/memory_data/synthetic/synthetic.yaml (the same as NVIDIA/RULER@c3f5e3b
// scripts/synthetic.yaml) and RULER's tokens_to_generate (scripts/data/synthetic/constants.py).

export type SyntheticKind = 'vt' | 'cwe' | 'fwe' | 'qa';

/** Which upstream a sample follows (task option --flavour): MemAgent's OOD evaluation (default) or RULER's own. */
export type RulerFlavour = 'memagent' | 'ruler';

/** The flavours, default first. */
export const FLAVOURS: readonly RulerFlavour[] = ['memagent', 'ruler'];

export interface SyntheticSpec {
  name: 'vt' | 'cwe' | 'fwe' | 'qa_1' | 'qa_2';
  kind: SyntheticKind;
  tokensToGenerate: number;
  /** qa only: the dataset the questions and documents come from. */
  dataset?: 'squad' | 'hotpotqa';
  /** The longest token target a flavour runs (MemAgent's run.py skips qa_1 above 262144), with the reason. */
  maxTokens?: Partial<Record<RulerFlavour, { tokens: number; why: string }>>;
}

/** vt: one chain of 4 hops (5 variables). */
export const VT_CHAINS = 1;
export const VT_HOPS = 4;

/** cwe: 10 common words ×30 among uncommon words ×3 (×6 / ×1 below 4096 tokens). */
export const CWE_COMMON = 10;
export const CWE_FREQ_COMMON = 30;
export const CWE_FREQ_UNCOMMON = 3;

/** fwe: Zipf exponent and the length of a coded word. */
export const FWE_ALPHA = 2.0;
export const FWE_WORD_LENGTH = 6;

export const SYNTHETIC_SPECS: readonly SyntheticSpec[] = [
  { name: 'vt', kind: 'vt', tokensToGenerate: 30 },
  { name: 'cwe', kind: 'cwe', tokensToGenerate: 120 },
  { name: 'fwe', kind: 'fwe', tokensToGenerate: 50 },
  {
    name: 'qa_1',
    kind: 'qa',
    tokensToGenerate: 32,
    dataset: 'squad',
    maxTokens: {
      memagent: {
        tokens: 262144,
        why: "MemAgent's OOD grid (taskutils/memory_eval/run.py) runs qa_1 only up to 256k: SQuAD's paragraphs, each used once, do not fill more (--flavour ruler runs it at any length)",
      },
    },
  },
  { name: 'qa_2', kind: 'qa', tokensToGenerate: 32, dataset: 'hotpotqa' },
];

export function syntheticSpec(name: string): SyntheticSpec {
  const spec = SYNTHETIC_SPECS.find((s) => s.name === name);
  if (!spec) throw new Error(`no RULER synthetic task ${name}`);
  return spec;
}
