// A published (paper) table as shipped under baselines/paper/: the shape reports/baselines.ts reads and validates,
// which tables, comparisons and chart overlays use.

export interface PaperLength {
  label: string;
  docs: number;
  /** The paper's label read as a token count (7K → 7000, 3.5M → 3500000); where charts place paper points. */
  nominalTokens: number;
  /** Measured mean context tokens (Qwen2.5), or null where the source did not measure it. */
  approxTokens: number | null;
  minTokens: number | null;
  maxTokens: number | null;
}

export interface PaperSeries {
  model: string;
  method: string;
  checkpoint?: string;
  /** The paper's grouping of its rows (e.g. 'RL-MemAgent', 'Long Context Model'), where it has one. */
  group?: string;
  /** Percent (0..100) per entry of `lengths`; null = N/A in the paper. */
  scores: Array<number | null>;
}

export interface PaperFigureValue {
  model: string;
  method: string;
  score: number;
}

export interface PaperFigure {
  id: string;
  task: string;
  length: { label: string; tokens: number };
  readFromFigure: boolean;
  note: string;
  values: PaperFigureValue[];
}

export interface PaperBaseline {
  kind: 'paper-baseline';
  id: string;
  title: string;
  source: { paper: string; arxiv: string; location: string; [key: string]: string };
  task: string;
  metric: string;
  scale: 'percent';
  samplesPerLength: number;
  notes: string[];
  lengths: PaperLength[];
  series: PaperSeries[];
  figures: PaperFigure[];
}
