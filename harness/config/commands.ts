// The parsed forms of every bench command, produced by cli/parse.ts and consumed by cli/commands/.
import type { LengthTarget } from '../types.js';
import type { RunConfig } from './run-config.js';
import type { FigureOptions } from '../report/facet.js';

/** A parsed command line: what each command in cli/commands/ receives. */
export type Command =
  | { command: 'help'; topic?: string }
  | { command: 'version' }
  | { command: 'tasks'; json?: boolean }
  /** `bench runs [DIR]`: dir absent = runs/. */
  | { command: 'runs'; dir?: string; json?: boolean }
  /** json: the outcome as one JSON document on stdout; noPlan: no predicted wall time before an endpoint run. */
  | { command: 'run'; config: RunConfig; json?: boolean; noPlan?: boolean; costPreset?: string }
  /** `bench plan`: config is the planned `bench run` (absent with only --calibrate); the rest as typed, checked by the command. */
  | {
      command: 'plan';
      config?: RunConfig;
      simulate?: string;
      calibrate?: string;
      timeScale?: string;
      outputTokens?: string;
      json: boolean;
    }
  | {
      command: 'generate';
      task: string;
      lengthSpec?: string;
      lengths?: LengthTarget[];
      samples?: number;
      seed: number;
      out: string;
      /** A generate layout of the catalog (checked by the parser). */
      format: string;
      tokenizer: string;
      /** Task options (--data and the families' flags, e.g. --placement), by name without '--'. */
      options: Record<string, string>;
    }
  | {
      command: 'score';
      target: string;
      /** 'auto' or a registered score source (Catalog.scoreSources). */
      format: string;
      json: boolean;
      metric?: string;
    }
  /** format: an export layout of the catalog (checked by the parser). */
  | { command: 'export'; runDir: string; format: string; out: string; tasks?: string[] }
  | {
      command: 'report';
      runDirs: string[];
      out?: string;
      paper: boolean;
      json?: boolean;
      figures?: FigureOptions;
      costPreset?: string;
    }
  | {
      command: 'gate';
      runDir: string;
      baseline: string;
      maxDrop?: number;
      maxErrors?: number;
      junit?: string;
      z?: number;
      exact: boolean;
      allowMissing: boolean;
      paired?: boolean;
      alpha?: number;
      json?: boolean;
      allowProtocolChange?: boolean;
    }
  | {
      command: 'compare';
      dirs: string[];
      methods?: string[];
      alpha?: number;
      maxDrop?: number;
      z?: number;
      out?: string;
      json?: boolean;
      figures?: FigureOptions;
      allowProtocolChange?: boolean;
    }
  | { command: 'baseline'; runDir: string; out: string }
  | { command: 'merge'; shardDirs: string[]; out: string }
  | { command: 'serve'; options: Record<string, string | boolean | undefined> }
  /** `bench view [RUN...]`: runDirs empty = every run directory under runs/. */
  | { command: 'view'; runDirs: string[]; port: number };

export type CommandOf<K extends Command['command']> = Extract<Command, { command: K }>;

/** Where a command writes: its results to out, warnings and notes to err. */
export interface CommandIO {
  out(line: string): void;
  err(line: string): void;
}
