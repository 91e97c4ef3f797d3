// `bench gate <run-dir> --baseline FILE|RUN-DIR [--max-drop P] [--max-errors N] [--z Z] [--exact] [--allow-missing] [--junit FILE]`
// `[--paired [--alpha A]]` (reports/paired-gate.ts: a run directory as the baseline, the paired rule)
// and `bench baseline <run-dir> --out FILE`. Exit codes: 0 pass, 1 regression, 2 usage or harness error.
// The rule is documented in reports/regression.ts.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { UserError, errorMessage } from '../../harness/errors.js';
import { checkOutputFile } from '../../harness/path-checks.js';
import { loadRecords } from '../../reports/records.js';
import {
  evaluateGate,
  failing,
  formatGate,
  junitXml,
  missingNotes,
  writeBaseline,
  type GateResult,
} from '../../reports/regression.js';
import {
  formatPairedGate,
  loadGateBaseline,
  pairedGate,
  type GateBaselineSource,
  type PairedGate,
} from '../../reports/paired-gate.js';
import { isGateRow, summarize } from '../../reports/summary.js';
import { loadManifestView } from '../../reports/manifest.js';
import { runContent } from '../../reports/paired.js';
import { checkProtocolChange, protocolChangeWarning } from '../../reports/protocol-change.js';

import { writeFileAtomic } from '../../harness/run-dir/atomic-write.js';
import type { CommandIO, CommandOf } from '../../harness/config/commands.js';
import { plural } from '../../harness/util/plural.js';

// The gate and baselines read only gate rows (isGateRow): no report facet's breakdown rows are needed.
const GATE_ONLY = [] as const;

export interface GateCommandOptions {
  runDir: string;
  baseline: string;
  /** Flat tolerance in points (×100 scale). Default 0. */
  maxDrop?: number;
  /** Most errored samples allowed in the run. Default: as many as the baseline had (usually 0). */
  maxErrors?: number;
  /** Multiplier of the binomial standard error. Default 2. */
  z?: number;
  /** Any change fails (for deterministic CI runs). */
  exact?: boolean;
  /** Skip baseline cells the run lacks (default: they fail the gate). */
  allowMissing?: boolean;
  /** Write JUnit XML here. */
  junit?: string;
  /** Judge keys whose baseline run shares sample ids with the run by the paired test (reports/compare.ts). */
  paired?: boolean;
  /** Family-wise α of the Holm correction with --paired. Default 0.05. */
  alpha?: number;
  /** Print the verdict as one JSON document (gateJson) instead of the table. */
  json?: boolean;
  /** Gate a run whose request fingerprint differs from the baseline's (each differing field is still named). */
  allowProtocolChange?: boolean;
  /** Output sinks (default stdout / stderr). */
  print?: (text: string) => void;
  printError?: (text: string) => void;
}

/** `bench gate --json`: the verdict, every key's check, the error count and, with --paired, the paired rows. */
export function gateJson(
  result: GateResult,
  source: GateBaselineSource,
  paired: PairedGate | null,
): Record<string, unknown> {
  const { missingNote } = missingNotes(result);
  return {
    command: 'gate',
    verdict: result.failed ? 'fail' : 'pass',
    exitCode: result.exitCode,
    baseline: { path: source.path, kind: source.kind },
    paired: paired !== null,
    keys: {
      compared: result.checks.filter((c) => c.run && c.baseline).length,
      failing: result.checks.filter((c) => c.run && failing(c)).length,
      missing: result.checks.filter((c) => !c.run && failing(c)).length,
      skipped: result.checks.filter((c) => c.verdict === 'missing' && c.skipped).length,
    },
    ...(missingNote ? { missingNote: missingNote.replace(/^, /, '') } : {}),
    checks: result.checks,
    errors: result.errors,
    notes: result.notes,
    ...(paired ? { pairedRows: paired.rows, fallback: paired.fallback } : {}),
  };
}

function writeJunit(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, text);
}

function checkNumber(name: string, value: number | undefined, min: number): void {
  if (value !== undefined && !(Number.isFinite(value) && value >= min))
    throw new UserError(`${name} must be a number ≥ ${min} (got ${value})`);
}

/** Runs the gate and returns the exit code; never throws. */
export async function gateCommand(options: GateCommandOptions): Promise<number> {
  const print = options.print ?? ((t: string) => process.stdout.write(`${t}\n`));
  const printError = options.printError ?? ((t: string) => process.stderr.write(`${t}\n`));
  const suite = `bench gate ${options.runDir}`;
  if (options.junit !== undefined) {
    // Before any work, and never retried below: a JUnit path that cannot be written is a usage error.
    try {
      checkOutputFile(options.junit, '--junit', 'pass a file in a writable directory, e.g. --junit gate.xml');
    } catch (err) {
      printError(`bench gate: ${errorMessage(err)}`);
      return 2;
    }
  }
  try {
    checkNumber('--max-drop', options.maxDrop, 0);
    checkNumber('--max-errors', options.maxErrors, 0);
    checkNumber('--z', options.z, 0);
    if (options.alpha !== undefined && !(options.alpha > 0 && options.alpha < 1))
      throw new UserError(`--alpha must be a number in (0, 1) (got ${options.alpha})`);
    if (options.paired && options.exact)
      throw new UserError(
        '--paired and --exact exclude each other: --exact fails on any change, --paired tests whether a drop is significant',
      );
    const source = await loadGateBaseline(options.baseline, (m) => printError(`warning: ${m}`));
    // A run whose requests differ from the baseline's (template, answer prefix, decoding, ...) is refused.
    const changed = checkProtocolChange(
      {
        label: `the baseline (${options.baseline})`,
        manifest: source.kind === 'run' ? loadManifestView(source.path)?.manifest : source.baseline.source,
      },
      { label: `the run (${options.runDir})`, manifest: loadManifestView(options.runDir)?.manifest },
      Boolean(options.allowProtocolChange),
    );
    if (changed.length > 0) printError(protocolChangeWarning(changed));
    const records = await loadRecords(options.runDir, { onWarning: (m) => printError(`warning: ${m}`) });
    const rows = summarize(records, GATE_ONLY);
    if (rows.length === 0) throw new UserError(`${options.runDir} has no sample records to gate`);
    const gateOptions = {
      maxDrop: options.maxDrop,
      z: options.z,
      maxErrors: options.maxErrors,
      exact: options.exact,
      allowMissing: options.allowMissing,
    };
    const paired = options.paired
      ? pairedGate(
          source,
          records,
          { alpha: options.alpha, maxDrop: options.maxDrop, z: options.z },
          source.kind === 'run'
            ? {
                a: runContent(loadManifestView(source.path)?.manifest),
                b: runContent(loadManifestView(options.runDir)?.manifest),
              }
            : undefined,
        )
      : null;
    const result = evaluateGate(source.baseline, rows, { ...gateOptions, judge: paired?.judge });
    if (options.json) print(JSON.stringify(gateJson(result, source, paired), null, 2));
    else {
      if (source.kind === 'run' && !paired)
        print(
          `baseline: run directory ${source.path} (its per-key scores; --paired tests the differences over shared sample ids)`,
        );
      print(paired ? formatPairedGate(result, paired, gateOptions) : formatGate(result, gateOptions));
    }
    if (options.junit) writeJunit(options.junit, junitXml(suite, result));
    return result.exitCode;
  } catch (err) {
    const message = errorMessage(err);
    // A malformed baseline is reported one line per problem, each line a whole message.
    for (const line of message.split('\n'))
      printError(`bench gate: ${err instanceof UserError ? '' : 'internal error: '}${line}`);
    if (options.junit) {
      try {
        writeJunit(options.junit, junitXml(suite, { error: message }));
      } catch (writeErr) {
        printError(`bench gate: could not write ${options.junit}: ${errorMessage(writeErr)}`);
      }
    }
    return 2;
  }
}

export interface BaselineCommandOptions {
  runDir: string;
  out: string;
}

/** `bench baseline <run-dir> --out FILE`: freezes a run's per-(task, method, length) scores for `bench gate`. */
export async function baselineCommand(options: BaselineCommandOptions): Promise<{ file: string; entries: number }> {
  if (!options.out) throw new UserError('bench baseline needs --out FILE');
  checkOutputFile(
    options.out,
    '--out',
    'pass a file in a writable directory, e.g. --out baselines/regression/mine.json',
  );
  const rows = summarize(await loadRecords(options.runDir), GATE_ONLY);
  if (rows.length === 0) throw new UserError(`${options.runDir} has no sample records to make a baseline from`);
  const manifest = loadManifestView(options.runDir);
  const source: Record<string, unknown> = { runDir: options.runDir };
  if (manifest) {
    for (const k of ['command', 'seed', 'tokenizer', 'versions'] as const)
      if (manifest[k] !== undefined) source[k] = manifest[k];
    if (manifest.model?.id) source.model = manifest.model.id;
    // The requests the baseline's scores came from: bench gate refuses a run that sent others.
    if (manifest.manifest.requests) source.requests = manifest.manifest.requests;
  }
  writeBaseline(rows, options.out, source);
  return { file: options.out, entries: rows.filter(isGateRow).length };
}

export async function gateCli(cmd: CommandOf<'gate'>): Promise<number> {
  return gateCommand({
    json: cmd.json,
    runDir: cmd.runDir,
    baseline: cmd.baseline,
    maxDrop: cmd.maxDrop,
    maxErrors: cmd.maxErrors,
    z: cmd.z,
    exact: cmd.exact,
    allowMissing: cmd.allowMissing,
    junit: cmd.junit,
    paired: cmd.paired,
    alpha: cmd.alpha,
    allowProtocolChange: cmd.allowProtocolChange,
  });
}

export async function baselineCli(cmd: CommandOf<'baseline'>, io: CommandIO): Promise<number> {
  const r = await baselineCommand({ runDir: cmd.runDir, out: cmd.out });
  io.out(`wrote ${plural(r.entries, 'baseline entry', 'baseline entries')} to ${r.file}`);
  return 0;
}
