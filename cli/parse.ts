import { parseArgs } from 'node:util';
import { UserError } from '../harness/errors.js';
import type { Command } from '../harness/config/commands.js';
import type { ApiKind, RunConfig } from '../harness/config/run-config.js';
import { API_KINDS } from '../harness/models/api.js';
import { checkNativePlacement, rulerRunFlags } from '../harness/protocol/ruler-native.js';
import { methods as methodRegistry, type MethodFlagValues, type MethodOption } from '../harness/methods/index.js';
import { parseLengths } from '../harness/config/lengths.js';
import { didYouMean } from '../harness/suggest.js';
import { checkInputFile } from '../harness/path-checks.js';
import { resolveShard, type ShardEnv } from '../harness/config/shard.js';
import { MIN_WORKER_HEAP_MB } from '../harness/runner/worker-heap.js';
import type { TaskOptionCommand } from '../harness/config/task-option.js';
import type { Catalog } from '../harness/registry/family.js';
import { builtinCatalog } from '../generators/index.js';
import { costModel } from './cost-preset.js';
import { FIGURE_OPTIONS, parseFigureFlags } from './figure-flags.js';
import type { FigureOptions } from '../harness/report/facet.js';

/**
 * What the parser reads from the catalog: the families' task options and file layouts. The default is the built-in
 * one: parsing is synchronous and comes first, so the families' modules load with this one (~40 ms).
 */
export type CliCatalog = Pick<
  Catalog,
  'taskOptions' | 'exportLayouts' | 'generateLayouts' | 'exportFormats' | 'generateFormats' | 'tasks' | 'exampleTasks'
>;

/** The task messages give as an example (the catalog's first), with its default lengths. */
function exampleTask(catalog: CliCatalog): { name: string; lengths: string } {
  const [name] = catalog.exampleTasks(1);
  return name === undefined
    ? { name: 'TASK', lengths: '8k' }
    : { name, lengths: catalog.tasks.get(name).defaultLengths };
}

export type OptionSpec = { type: 'string' | 'boolean'; multiple?: boolean; short?: string };

/** Run options that belong to no method; each method's own options come from the registry. */
const BASE_RUN_OPTIONS: Record<string, OptionSpec> = {
  lengths: { type: 'string' },
  samples: { type: 'string' },
  seed: { type: 'string' },
  out: { type: 'string' },
  method: { type: 'string' },
  model: { type: 'string' },
  endpoint: { type: 'string', multiple: true },
  'model-name': { type: 'string' },
  'api-key-env': { type: 'string' },
  concurrency: { type: 'string' },
  'requests-per-endpoint': { type: 'string' },
  tokenizer: { type: 'string' },
  data: { type: 'string' },
  shard: { type: 'string' },
  workers: { type: 'string' },
  'worker-heap-mb': { type: 'string' },
  'no-progress': { type: 'boolean' },
  trial: { type: 'string' },
  'no-cache': { type: 'boolean' },
  'store-prompts': { type: 'boolean' },
  'no-memory-trace': { type: 'boolean' },
  'no-retry-429': { type: 'boolean' },
  'retry-errors': { type: 'boolean' },
  extend: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  'server-batch': { type: 'string' },
  'request-timeout': { type: 'string' },
  'retry-base-ms': { type: 'string' },
  'cache-debug': { type: 'boolean' },
  api: { type: 'string' },
  'max-model-len': { type: 'string' },
  'allow-truncation': { type: 'boolean' },
  'thinking-budget': { type: 'string' },
  protocol: { type: 'string' },
};

/** `bench run`'s own options, which `bench plan` (taking every other run option) does not take. */
const RUN_ONLY_OPTIONS: Record<string, OptionSpec> = {
  json: { type: 'boolean' },
  'no-plan': { type: 'boolean' },
  'cost-preset': { type: 'string' },
};

/** `bench plan`'s own options, on top of every `bench run` option. */
const PLAN_OPTIONS: Record<string, OptionSpec> = {
  simulate: { type: 'string' },
  calibrate: { type: 'string' },
  'time-scale': { type: 'string' },
  'output-tokens': { type: 'string' },
  json: { type: 'boolean' },
};

/** The families' task options that `command` takes (e.g. --placement), from the catalog. */
function taskOptionSpecs(catalog: CliCatalog, command: TaskOptionCommand): Record<string, OptionSpec> {
  const out: Record<string, OptionSpec> = {};
  for (const o of catalog.taskOptions.all()) if (o.commands.includes(command)) out[o.name] = { type: 'string' };
  return out;
}

function runOptions(catalog: CliCatalog): Record<string, OptionSpec> {
  const out: Record<string, OptionSpec> = { ...BASE_RUN_OPTIONS, ...taskOptionSpecs(catalog, 'run') };
  for (const o of methodRegistry.options()) out[o.flag] = { type: 'string' };
  return out;
}

const GENERATE_OPTIONS: Record<string, OptionSpec> = {
  lengths: { type: 'string' },
  samples: { type: 'string' },
  seed: { type: 'string' },
  out: { type: 'string' },
  format: { type: 'string' },
  tokenizer: { type: 'string' },
  data: { type: 'string' },
};
const SCORE_OPTIONS: Record<string, OptionSpec> = {
  format: { type: 'string' },
  json: { type: 'boolean' },
  metric: { type: 'string' },
};
const EXPORT_OPTIONS: Record<string, OptionSpec> = {
  format: { type: 'string' },
  out: { type: 'string' },
  tasks: { type: 'string' },
};
const REPORT_OPTIONS: Record<string, OptionSpec> = {
  out: { type: 'string' },
  paper: { type: 'boolean' },
  json: { type: 'boolean' },
  'cost-preset': { type: 'string' },
  ...FIGURE_OPTIONS,
};
const JSON_ONLY: Record<string, OptionSpec> = { json: { type: 'boolean' } };
const GATE_OPTIONS: Record<string, OptionSpec> = {
  baseline: { type: 'string' },
  'max-drop': { type: 'string' },
  'max-errors': { type: 'string' },
  junit: { type: 'string' },
  z: { type: 'string' },
  exact: { type: 'boolean' },
  'allow-missing': { type: 'boolean' },
  'allow-protocol-change': { type: 'boolean' },
  paired: { type: 'boolean' },
  alpha: { type: 'string' },
  json: { type: 'boolean' },
};
const OUT_ONLY: Record<string, OptionSpec> = { out: { type: 'string' } };
const VIEW_OPTIONS: Record<string, OptionSpec> = { port: { type: 'string' } };
/** bench view's port when --port is not given. */
export const VIEW_DEFAULT_PORT = 8765;
const SERVE_OPTIONS: Record<string, OptionSpec> = {
  host: { type: 'string' },
  port: { type: 'string' },
  'model-name': { type: 'string' },
  'api-key-env': { type: 'string' },
  'latency-ms': { type: 'string' },
  'latency-per-token-ms': { type: 'string' },
  'fail-5xx': { type: 'string' },
  'fail-429': { type: 'string' },
  'retry-after': { type: 'string' },
  'fail-reset': { type: 'string' },
  'fail-malformed': { type: 'string' },
  'fail-hang': { type: 'string' },
  seed: { type: 'string' },
  'max-context': { type: 'string' },
  'max-model-len': { type: 'string' },
  reasoning: { type: 'string' },
  tokenizer: { type: 'string' },
  simulate: { type: 'string' },
  'time-scale': { type: 'string' },
};

/** The subcommands, in the order help lists them. */
export const SUBCOMMANDS = [
  'run',
  'plan',
  'tasks',
  'runs',
  'generate',
  'score',
  'export',
  'report',
  'gate',
  'compare',
  'baseline',
  'merge',
  'serve',
  'view',
] as const;
export type Subcommand = (typeof SUBCOMMANDS)[number];

/** The flags each subcommand's parser accepts (without the leading --), so help can be checked against them. */
export function commandOptions(
  command: Subcommand,
  catalog: CliCatalog = builtinCatalog(),
): Record<string, OptionSpec> {
  switch (command) {
    case 'run':
      return { ...runOptions(catalog), ...RUN_ONLY_OPTIONS };
    case 'plan':
      return { ...runOptions(catalog), ...PLAN_OPTIONS };
    case 'tasks':
    case 'runs':
      return JSON_ONLY;
    case 'generate':
      return generateOptions(catalog);
    case 'score':
      return SCORE_OPTIONS;
    case 'export':
      return EXPORT_OPTIONS;
    case 'report':
      return REPORT_OPTIONS;
    case 'gate':
      return GATE_OPTIONS;
    case 'compare':
      return COMPARE_OPTIONS;
    case 'baseline':
      return OUT_ONLY;
    case 'merge':
      return OUT_ONLY;
    case 'serve':
      return SERVE_OPTIONS;
    case 'view':
      return VIEW_OPTIONS;
  }
}

/** A value that starts with '-' but is a (negative) number, e.g. -1 or -5k: a value, not an option. */
const NEGATIVE_VALUE = /^-\.?\d/;

/**
 * Checks every flag against `options` before node's parseArgs sees them: an unknown flag is refused with the closest
 * known one, and `--flag -1` becomes `--flag=-1` so a negative value reaches the flag's own check (parseArgs would
 * call it "ambiguous").
 */
function preprocess(argv: string[], options: Record<string, OptionSpec>, command: string): string[] {
  const out: string[] = [];
  const unknown = (written: string, name: string) =>
    new UserError(
      `bench ${command}: unknown option '${written}'${didYouMean(name, Object.keys(options), (c) => `--${c}`)} (see bench ${command} --help)`,
    );
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      const spec = Object.hasOwn(options, name) ? options[name] : undefined;
      if (!spec) throw unknown(eq < 0 ? arg : arg.slice(0, eq), name);
      if (spec.type === 'string' && eq < 0 && i + 1 < argv.length && NEGATIVE_VALUE.test(argv[i + 1])) {
        out.push(`${arg}=${argv[++i]}`);
        continue;
      }
    } else if (NEGATIVE_VALUE.test(arg)) {
      // Not taken by a string flag above: parseArgs would read it as short options.
      const prev = i > 0 ? argv[i - 1] : '';
      const flag = prev.startsWith('--') && !prev.includes('=') ? prev : undefined;
      throw new UserError(
        `bench ${command}: unexpected argument '${arg}'${flag ? `: ${flag} takes no value` : ''} (see bench ${command} --help)`,
      );
    } else if (arg.startsWith('-') && arg.length > 1) {
      throw unknown(arg, arg.slice(1));
    }
    out.push(arg);
  }
  return out;
}

function parse(argv: string[], options: Record<string, OptionSpec>, command: string) {
  const args = preprocess(argv, options, command);
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    const msg = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new UserError(
      `bench ${command}: ${msg.replace(/^TypeError \[[A-Z_]+\]: /, '')} (see bench ${command} --help)`,
    );
  }
}

/** A path argument that must not be empty (`--out ""` would otherwise mean the current directory or nothing). */
function nonEmptyPath(raw: string | undefined, flag: string, what: string): string | undefined {
  if (raw !== undefined && raw.trim() === '') throw new UserError(`${flag} is empty: pass ${what}`);
  return raw;
}

export function parseInteger(
  raw: string | undefined,
  flag: string,
  min: number,
  fallback?: number,
  max?: number,
): number {
  if (raw === undefined) {
    if (fallback === undefined) throw new UserError(`${flag} is required`);
    return fallback;
  }
  const text = raw.trim();
  if (!/^-?\d+$/.test(text)) throw new UserError(`${flag} must be a whole number, got '${raw}'`);
  const n = Number(text);
  if (n < min) throw new UserError(`${flag} must be at least ${min}, got ${text}`);
  if (max !== undefined && n > max) throw new UserError(`${flag} must be at most ${max}, got ${text}`);
  // Above 2^53 - 1 a double cannot hold every whole number: 99999999999999999999 would silently become 1e20.
  if (!Number.isSafeInteger(n))
    throw new UserError(
      `${flag} must be at most ${Number.MAX_SAFE_INTEGER} (larger whole numbers lose precision), got ${text}`,
    );
  return n;
}

export function parseNumber(raw: string | undefined, flag: string, min: number, max: number, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < min || n > max)
    throw new UserError(`${flag} must be a number in [${min}, ${max}], got '${raw}'`);
  return n;
}

/** `--shard i/n` or `--shard auto[/n]` (harness/config/shard.ts; `auto` reads the job system's environment). */
export function parseShard(
  raw: string | undefined,
  env: ShardEnv = process.env,
): { index: number; count: number } | undefined {
  return resolveShard(raw, env);
}

function parseMethods(raw: string | undefined): string[] {
  const names = (raw ?? 'memagent')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (names.length === 0)
    throw new UserError(`--method is empty: use one or more of ${methodRegistry.names().join(', ')}`);
  for (const n of names) methodRegistry.get(n);
  return [...new Set(names)];
}

function parseMethodOption(o: MethodOption, raw: string | undefined): number | string | undefined {
  const flag = `--${o.flag}`;
  if (raw === undefined) return o.default;
  switch (o.type) {
    case 'integer':
      return parseInteger(raw, flag, o.min ?? Number.MIN_SAFE_INTEGER, undefined, o.max);
    case 'number':
      return parseNumber(raw, flag, o.min ?? -Infinity, o.max ?? Infinity, 0);
    case 'choice':
      if (!o.choices!.includes(raw))
        throw new UserError(`${flag} must be ${o.choices!.map((c) => `'${c}'`).join(' or ')}, got '${raw}'`);
      return raw;
    case 'path':
      if (raw.trim() === '') throw new UserError(`${flag} needs a file path`);
      checkInputFile(raw, flag);
      return raw;
  }
}

/** Every method option's value (defaults filled in); an option given for methods that are not run is refused. Each
 *  chosen method parses its settings from them here, so a bad --templates file is refused before anything runs. */
function parseMethodSettings(values: Record<string, unknown>, chosen: string[]): MethodFlagValues {
  const settings: Record<string, number | string | undefined> = {};
  for (const o of methodRegistry.options()) {
    const raw = values[o.flag] as string | undefined;
    if (raw !== undefined) {
      const users = methodRegistry.usersOf(o.flag);
      if (!users.some((u) => chosen.includes(u)))
        throw new UserError(
          `--${o.flag} applies to ${users.join(', ')}, which this run does not use (--method ${chosen.join(',')})`,
        );
    }
    settings[o.flag] = parseMethodOption(o, raw);
  }
  for (const name of chosen) methodRegistry.get(name).settings(settings);
  return settings;
}

function parseModel(model: string | undefined, endpoints: string[] | undefined): 'local' | string[] {
  const urls = [...(endpoints ?? [])];
  if (model !== undefined && model !== 'local') urls.unshift(model);
  if (model === 'local' && urls.length > 0)
    throw new UserError('--model local cannot be combined with --endpoint: pick the embedded model or endpoints');
  if (urls.length === 0) return 'local';
  for (const u of urls) {
    let parsed: URL;
    try {
      parsed = new URL(u);
    } catch {
      throw new UserError(`bad endpoint '${u}': expected 'local' or an http(s) URL such as http://127.0.0.1:8000/v1`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new UserError(`bad endpoint '${u}': only http and https URLs are supported`);
    if (parsed.username || parsed.password)
      throw new UserError(
        `endpoint '${parsed.host}' has credentials in the URL: pass the key through --api-key-env instead`,
      );
  }
  return urls;
}

function generateOptions(catalog: CliCatalog): Record<string, OptionSpec> {
  return { ...GENERATE_OPTIONS, ...taskOptionSpecs(catalog, 'generate') };
}

/** --data and the families' task options as given, by name (TaskEnv.options); the families check the values. */
function parseTaskOptions(
  values: Record<string, unknown>,
  catalog: CliCatalog,
  command: TaskOptionCommand,
): Record<string, string> {
  const options: Record<string, string> = {};
  if (values.data !== undefined)
    options.data = nonEmptyPath(values.data as string, '--data', 'the data file or directory')!;
  for (const o of catalog.taskOptions.all())
    if (o.commands.includes(command) && values[o.name] !== undefined) options[o.name] = values[o.name] as string;
  // A pipe or a device (`--data <(cmd)`, /dev/zero) is refused here, before any reading could hang.
  for (const o of [
    'data',
    ...catalog.taskOptions
      .all()
      .filter((t) => t.arg === 'FILE')
      .map((t) => t.name),
  ])
    if (options[o] !== undefined) checkInputFile(options[o], `--${o}`);
  return options;
}

/** A task option given without the option it needs (e.g. --pool without --data): its family's one line. */
function checkTaskOptionsRequired(options: Record<string, string>, catalog: CliCatalog): void {
  for (const o of catalog.taskOptions.all())
    if (o.requires && options[o.name] !== undefined && options[o.requires.option] === undefined)
      throw new UserError(o.requires.message);
}

/** 'a, b or c'. */
function orList(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

function parseRun(
  argv: string[],
  env: ShardEnv,
  catalog: CliCatalog,
  parsed = parse(argv, runOptions(catalog), 'run'),
): RunConfig {
  const { positionals } = parsed;
  // --protocol ruler fills in RULER's own defaults for the flags not given (harness/protocol/ruler-native.ts).
  const values = parsed.values.protocol === 'ruler' ? rulerRunFlags(parsed.values) : parsed.values;
  if (positionals.length === 0) {
    const eg = exampleTask(catalog);
    throw new UserError(
      `bench run needs a task, e.g. \`bench run ${eg.name} --lengths ${eg.lengths}\` (see \`bench tasks\`)`,
    );
  }
  if (positionals.length > 1)
    throw new UserError(`bench run takes one task argument (comma-separate several), got: ${positionals.join(' ')}`);
  let tasks = taskNames(positionals[0], catalog);
  const model = parseModel(values.model as string | undefined, values.endpoint as string[] | undefined);
  if (model !== 'local' && !values['model-name'])
    throw new UserError(
      '--model-name is required with an endpoint (the model name the server serves, e.g. BytedTsinghua-SIA/RL-MemoryAgent-14B)',
    );
  const options = parseTaskOptions(values, catalog, 'run');
  // `file:PATH` is the generic JSONL task with --data PATH (generators/jsonl).
  const file = tasks.find((t) => t.startsWith('file:'));
  if (file !== undefined) {
    if (tasks.length > 1 || options.data !== undefined)
      throw new UserError(`${file} is a task with its own data: run it alone and without --data`);
    if (file.length === 5) throw new UserError('file: needs a path, e.g. `bench run file:my-data.jsonl`');
    tasks = ['jsonl'];
    options.data = file.slice(5);
  }
  checkTaskOptionsRequired(options, catalog);
  const lengthSpec = values.lengths as string | undefined;
  const methods = parseMethods(values.method as string | undefined);
  const methodSettings = parseMethodSettings(values, methods);
  if (methods.includes('native'))
    checkNativePlacement(
      String(methodSettings['chat-template']),
      String(methodSettings['answer-prefix']),
      values.api as string | undefined,
    );
  return {
    tasks,
    lengthSpec,
    lengths: lengthSpec === undefined ? undefined : parseLengths(lengthSpec),
    samples: values.samples === undefined ? undefined : parseInteger(values.samples as string, '--samples', 1),
    seed: parseInteger(values.seed as string | undefined, '--seed', 0, 42),
    out: nonEmptyPath(
      values.out as string | undefined,
      '--out',
      'a directory for the run, e.g. --out runs/mine, or drop --out for runs/<task>__<method>__<model>__seed<S>__<hash>',
    ),
    methods,
    methodSettings,
    model,
    modelName: values['model-name'] as string | undefined,
    apiKeyEnv: values['api-key-env'] as string | undefined,
    concurrency: parseInteger(
      values.concurrency as string | undefined,
      '--concurrency',
      1,
      values['server-batch'] === undefined ? 16 : 256,
    ),
    requestsPerEndpoint: parseInteger(
      values['requests-per-endpoint'] as string | undefined,
      '--requests-per-endpoint',
      1,
      64,
    ),
    tokenizer: (values.tokenizer as string | undefined) ?? 'qwen2.5',
    options,
    shard: parseShard(values.shard as string | undefined, env),
    workers: values.workers === undefined ? undefined : parseInteger(values.workers as string, '--workers', 1),
    workerHeapMb:
      values['worker-heap-mb'] === undefined
        ? undefined
        : parseInteger(values['worker-heap-mb'] as string, '--worker-heap-mb', MIN_WORKER_HEAP_MB),
    progress: !values['no-progress'],
    trial: parseInteger(values.trial as string | undefined, '--trial', 0, 0),
    cache: !values['no-cache'],
    storePrompts: Boolean(values['store-prompts']),
    memoryTrace: !values['no-memory-trace'],
    retry429: !values['no-retry-429'],
    retryErrors: Boolean(values['retry-errors']),
    extend: Boolean(values.extend),
    dryRun: Boolean(values['dry-run']),
    serverBatch:
      values['server-batch'] === undefined
        ? undefined
        : parseInteger(values['server-batch'] as string, '--server-batch', 1),
    requestTimeoutMs:
      values['request-timeout'] === undefined
        ? undefined
        : Math.round(parseNumber(values['request-timeout'] as string, '--request-timeout', 0.1, 86400, 60) * 1000),
    retryBaseMs:
      values['retry-base-ms'] === undefined
        ? undefined
        : parseInteger(values['retry-base-ms'] as string, '--retry-base-ms', 1),
    cacheDebug: Boolean(values['cache-debug']),
    ...nativeModeOf(values),
  };
}

/** --cost-preset NAME, checked against the simulator's presets (one line, exit 2, for an unknown one). */
function costPresetOf(raw: unknown): { costPreset?: string } {
  if (raw === undefined) return {};
  costModel(raw as string);
  return { costPreset: raw as string };
}

/** --api, --max-model-len, --allow-truncation, --thinking-budget and --protocol (each absent when not given, so a
 *  default run's config, identity and directory name stay as they were). */
function nativeModeOf(values: Record<string, unknown>): Partial<RunConfig> {
  const out: Partial<RunConfig> = {};
  const api = values.api as string | undefined;
  if (api !== undefined) {
    if (!API_KINDS.includes(api as ApiKind))
      throw new UserError(`--api must be ${orList(API_KINDS.map((k) => `'${k}'`))}, got '${api}'`);
    out.api = api as ApiKind;
  }
  if (values['max-model-len'] !== undefined)
    out.maxModelLen = parseInteger(values['max-model-len'] as string, '--max-model-len', 1);
  if (values['allow-truncation']) out.allowTruncation = true;
  if (values['thinking-budget'] !== undefined)
    out.thinkingBudget = parseInteger(values['thinking-budget'] as string, '--thinking-budget', 1);
  const protocol = values.protocol as string | undefined;
  if (protocol !== undefined) {
    if (protocol !== 'ruler')
      throw new UserError(`--protocol must be 'ruler' (RULER's own run mode), got '${protocol}'`);
    out.protocol = protocol;
  }
  return out;
}

/** Comma-separated task names; an empty one (`bench run ''`, `bench run ,`, `a,,b`) is refused. */
function taskNames(raw: string, catalog: CliCatalog): string[] {
  const names = raw.split(',').map((s) => s.trim());
  if (names.some((n) => n === '')) {
    const where = raw.trim() === '' || names.every((n) => n === '') ? '' : ` in '${raw}'`;
    throw new UserError(
      `task name is empty${where}: pass a task such as ${exampleTask(catalog).name}, or several separated by commas (see bench tasks)`,
    );
  }
  return names;
}

/** `bench plan`: a `bench run` command line plus the hardware to predict on, or a run directory to calibrate from. */
function parsePlan(argv: string[], env: ShardEnv, catalog: CliCatalog): Command {
  const parsed = parse(argv, { ...runOptions(catalog), ...PLAN_OPTIONS }, 'plan');
  const v = parsed.values;
  const str = (k: string) => v[k] as string | undefined;
  const calibrate = str('calibrate');
  if (calibrate !== undefined && calibrate.trim() === '') throw new UserError('--calibrate needs a run directory');
  if (parsed.positionals.length === 0 && calibrate === undefined) {
    const eg = exampleTask(catalog);
    throw new UserError(
      `bench plan needs a task (the \`bench run\` command line to plan, e.g. \`bench plan ${eg.name} --lengths ${eg.lengths}\`) or --calibrate RUN_DIR`,
    );
  }
  return {
    command: 'plan',
    config: parsed.positionals.length > 0 ? parseRun(argv, env, catalog, parsed) : undefined,
    simulate: str('simulate'),
    calibrate,
    timeScale: str('time-scale'),
    outputTokens: str('output-tokens'),
    json: Boolean(v.json),
  };
}

function one(positionals: string[], what: string, command: string): string {
  if (positionals.length !== 1)
    throw new UserError(`bench ${command} takes exactly one ${what}, got ${positionals.length}`);
  return positionals[0];
}

/** `bench help TOPIC` and `bench TOPIC --help` alike: the overview, or one known command's help. */
function helpFor(topic: string | undefined): Command {
  if (topic === undefined || topic === 'help' || topic === '--help' || topic === '-h') return { command: 'help' };
  if (!(SUBCOMMANDS as readonly string[]).includes(topic))
    throw new UserError(`no help for '${topic}': commands are ${SUBCOMMANDS.join(', ')} (see bench --help)`);
  return { command: 'help', topic };
}

/** `bench compare A B` / `bench compare RUN --methods A,B` (cli/commands/compare.ts). */
const COMPARE_OPTIONS: Record<string, OptionSpec> = {
  methods: { type: 'string' },
  alpha: { type: 'string' },
  'max-drop': { type: 'string' },
  z: { type: 'string' },
  out: { type: 'string' },
  json: { type: 'boolean' },
  'allow-protocol-change': { type: 'boolean' },
  ...FIGURE_OPTIONS,
};

/** --alpha: the family-wise error rate of the Holm correction, strictly between 0 and 1. */
function parseAlpha(raw: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n <= 0 || n >= 1)
    throw new UserError(`--alpha must be a number strictly between 0 and 1, got '${raw}'`);
  return n;
}

function parseCompare(values: Record<string, unknown>, positionals: string[]): Command {
  const methods =
    values.methods === undefined
      ? undefined
      : (values.methods as string)
          .split(',')
          .map((m) => m.trim())
          .filter(Boolean);
  if (methods !== undefined && methods.length === 0)
    throw new UserError('--methods is empty: name the methods to compare, e.g. --methods memagent,full-context');
  if (positionals.length === 1) {
    if (methods?.length !== 2)
      throw new UserError(
        'bench compare RUN needs --methods A,B (two methods of that run); or give two run directories: bench compare A B',
      );
  } else if (positionals.length !== 2) {
    throw new UserError(
      `bench compare takes two run directories (A, the baseline, then B) or one with --methods A,B; got ${positionals.length}`,
    );
  }
  for (const p of positionals) checkInputFile(p);
  return {
    command: 'compare',
    dirs: positionals,
    methods,
    alpha: values.alpha === undefined ? undefined : parseAlpha(values.alpha as string),
    maxDrop:
      values['max-drop'] === undefined ? undefined : parseNumber(values['max-drop'] as string, '--max-drop', 0, 100, 0),
    z: values.z === undefined ? undefined : parseNumber(values.z as string, '--z', 0, 10, 2),
    out: values.out as string | undefined,
    ...(values.json ? { json: true } : {}),
    ...(values['allow-protocol-change'] ? { allowProtocolChange: true } : {}),
    ...withFigures(values),
  };
}

function withFigures(values: Record<string, unknown>): { figures?: FigureOptions } {
  const figures = parseFigureFlags(values);
  return figures ? { figures } : {};
}

/**
 * Pure: argv (without node and script), the environment (`--shard auto` reads it) and the catalog (the families'
 * task options and file layouts) → a command. Throws UserError on bad input.
 */
export function parseCli(argv: string[], env: ShardEnv = process.env, catalog: CliCatalog = builtinCatalog()): Command {
  const [head, ...rest] = argv;
  if (head === undefined || head === '--help' || head === '-h' || head === 'help')
    return helpFor(head === 'help' ? rest[0] : undefined);
  if (head === '--version' || head === '-v') return { command: 'version' };
  if (rest.includes('--help') || rest.includes('-h')) return helpFor(head);
  switch (head) {
    case 'tasks': {
      const { values, positionals } = parse(rest, JSON_ONLY, 'tasks');
      if (positionals.length > 0) throw new UserError(`bench tasks takes no arguments, got: ${positionals.join(' ')}`);
      return values.json ? { command: 'tasks', json: true } : { command: 'tasks' };
    }
    case 'runs': {
      const { values, positionals } = parse(rest, JSON_ONLY, 'runs');
      if (positionals.length > 1)
        throw new UserError(`bench runs takes at most one folder, got ${positionals.length}: ${positionals.join(' ')}`);
      const dir = nonEmptyPath(positionals[0], 'the folder', 'a folder of run directories, e.g. bench runs runs/');
      return { command: 'runs', ...(dir !== undefined ? { dir } : {}), ...(values.json ? { json: true } : {}) };
    }
    case 'run': {
      const parsed = parse(rest, { ...runOptions(catalog), ...RUN_ONLY_OPTIONS }, 'run');
      return {
        command: 'run',
        config: parseRun(rest, env, catalog, parsed),
        ...(parsed.values.json ? { json: true } : {}),
        ...(parsed.values['no-plan'] ? { noPlan: true } : {}),
        ...costPresetOf(parsed.values['cost-preset']),
      };
    }
    case 'plan':
      return parsePlan(rest, env, catalog);
    case 'generate': {
      const { values, positionals } = parse(rest, generateOptions(catalog), 'generate');
      const task = one(positionals, 'task', 'generate');
      if (task.trim() === '')
        throw new UserError(`task name is empty: pass a task such as ${exampleTask(catalog).name} (see bench tasks)`);
      const format = (values.format as string | undefined) ?? 'native';
      const layout = catalog.generateLayouts.find(format);
      if (!layout) throw new UserError(`--format must be ${orList(catalog.generateFormats())}, got '${format}'`);
      const oneFile = layout.perLength === undefined;
      if (
        !nonEmptyPath(
          values.out as string | undefined,
          '--out',
          oneFile
            ? 'a file, e.g. --out data.jsonl'
            : 'a directory (one file per length, in the layout of the peer tool)',
        )
      )
        throw new UserError(
          `bench generate needs --out ${oneFile ? 'FILE.jsonl' : 'DIR (one file per length, in the layout of the peer tool)'}`,
        );
      const options = parseTaskOptions(values, catalog, 'generate');
      checkTaskOptionsRequired(options, catalog);
      const lengthSpec = values.lengths as string | undefined;
      return {
        command: 'generate',
        task,
        lengthSpec,
        lengths: lengthSpec === undefined ? undefined : parseLengths(lengthSpec),
        samples: values.samples === undefined ? undefined : parseInteger(values.samples as string, '--samples', 1),
        seed: parseInteger(values.seed as string | undefined, '--seed', 0, 42),
        out: values.out as string,
        format,
        tokenizer: (values.tokenizer as string | undefined) ?? 'qwen2.5',
        options,
      };
    }
    case 'score': {
      const { values, positionals } = parse(rest, SCORE_OPTIONS, 'score');
      const format = (values.format as string | undefined) ?? 'auto';
      // The choices are the catalog's score sources: checked by the command (cli/commands/score.ts).
      const metric = values.metric as string | undefined;
      const target = one(positionals, 'run directory or predictions file', 'score');
      checkInputFile(target);
      return {
        command: 'score',
        target,
        format,
        json: Boolean(values.json),
        ...(metric !== undefined ? { metric } : {}),
      };
    }
    case 'export': {
      const { values, positionals } = parse(rest, EXPORT_OPTIONS, 'export');
      const runDir = one(positionals, 'run directory', 'export');
      const format = values.format as string | undefined;
      if (format === undefined || !catalog.exportLayouts.has(format))
        throw new UserError(
          `bench export needs --format ${orList(catalog.exportFormats())}${format === undefined ? '' : `, got '${format}'`}`,
        );
      if (!values.out) throw new UserError('bench export needs --out DIR (the folder the peer tool reads from)');
      const tasks = (values.tasks as string | undefined)
        ?.split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      return {
        command: 'export',
        runDir,
        format,
        out: values.out as string,
        ...(tasks !== undefined ? { tasks } : {}),
      };
    }
    case 'report': {
      const { values, positionals } = parse(rest, REPORT_OPTIONS, 'report');
      if (positionals.length === 0) throw new UserError('bench report needs at least one run directory');
      return {
        command: 'report',
        runDirs: positionals,
        out: nonEmptyPath(values.out as string | undefined, '--out', 'a directory for the report'),
        paper: Boolean(values.paper),
        ...(values.json ? { json: true } : {}),
        ...withFigures(values),
        ...costPresetOf(values['cost-preset']),
      };
    }
    case 'gate': {
      const { values, positionals } = parse(rest, GATE_OPTIONS, 'gate');
      if (!values.baseline) throw new UserError('bench gate needs --baseline FILE');
      checkInputFile(values.baseline as string, '--baseline');
      return {
        command: 'gate',
        runDir: one(positionals, 'run directory', 'gate'),
        baseline: values.baseline as string,
        maxDrop:
          values['max-drop'] === undefined
            ? undefined
            : parseNumber(values['max-drop'] as string, '--max-drop', 0, 100, 0),
        maxErrors:
          values['max-errors'] === undefined
            ? undefined
            : parseInteger(values['max-errors'] as string, '--max-errors', 0),
        junit: nonEmptyPath(
          values.junit as string | undefined,
          '--junit',
          'a file for the JUnit XML, e.g. --junit gate.xml',
        ),
        z: values.z === undefined ? undefined : parseNumber(values.z as string, '--z', 0, 10, 2),
        exact: Boolean(values.exact),
        allowMissing: Boolean(values['allow-missing']),
        ...(values.paired ? { paired: true } : {}),
        ...(values.alpha === undefined ? {} : { alpha: parseAlpha(values.alpha as string) }),
        ...(values.json ? { json: true } : {}),
        ...(values['allow-protocol-change'] ? { allowProtocolChange: true } : {}),
      };
    }
    case 'compare': {
      const { values, positionals } = parse(rest, COMPARE_OPTIONS, 'compare');
      return parseCompare(values, positionals);
    }
    case 'baseline': {
      const { values, positionals } = parse(rest, OUT_ONLY, 'baseline');
      if (!nonEmptyPath(values.out as string | undefined, '--out', 'a file, e.g. --out baselines/regression/mine.json'))
        throw new UserError('bench baseline needs --out FILE.json');
      return { command: 'baseline', runDir: one(positionals, 'run directory', 'baseline'), out: values.out as string };
    }
    case 'merge': {
      const { values, positionals } = parse(rest, OUT_ONLY, 'merge');
      if (positionals.length === 0) throw new UserError('bench merge needs shard directories');
      if (!nonEmptyPath(values.out as string | undefined, '--out', 'a directory for the merged run'))
        throw new UserError('bench merge needs --out DIR');
      return { command: 'merge', shardDirs: positionals, out: values.out as string };
    }
    case 'serve': {
      const { values, positionals } = parse(rest, SERVE_OPTIONS, 'serve');
      if (positionals.length > 0)
        throw new UserError(`bench serve takes no positional arguments, got: ${positionals.join(' ')}`);
      return { command: 'serve', options: values as Record<string, string | boolean | undefined> };
    }
    case 'view': {
      const { values, positionals } = parse(rest, VIEW_OPTIONS, 'view');
      return {
        command: 'view',
        runDirs: positionals,
        port: parseInteger(values.port as string | undefined, '--port', 0, VIEW_DEFAULT_PORT, 65535),
      };
    }
    default:
      throw new UserError(
        `unknown command '${head}'${didYouMean(head, [...SUBCOMMANDS])}: use ${SUBCOMMANDS.join(', ')} (see bench --help)`,
      );
  }
}
