import { parseArgs } from 'node:util';
import { UserError } from '../errors.js';
import type { Command } from '../config/commands.js';
import type { RunConfig } from '../config/run-config.js';
import { methods as methodRegistry, type MethodOption, type MethodSettings } from '../methods/index.js';
import { parseLengths } from '../config/lengths.js';
import { resolveShard, type ShardEnv } from '../config/shard.js';

type OptionSpec = { type: 'string' | 'boolean'; multiple?: boolean; short?: string };

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
  placement: { type: 'string' },
  data: { type: 'string' },
  shard: { type: 'string' },
  workers: { type: 'string' },
  'no-progress': { type: 'boolean' },
  trial: { type: 'string' },
  'no-cache': { type: 'boolean' },
  'store-prompts': { type: 'boolean' },
  'no-retry-429': { type: 'boolean' },
  'retry-errors': { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  'server-batch': { type: 'string' },
  'request-timeout': { type: 'string' },
  'retry-base-ms': { type: 'string' },
  'cache-debug': { type: 'boolean' },
};

/** `bench plan`'s own options, on top of every `bench run` option. */
const PLAN_OPTIONS: Record<string, OptionSpec> = {
  simulate: { type: 'string' }, calibrate: { type: 'string' }, 'time-scale': { type: 'string' }, 'output-tokens': { type: 'string' }, json: { type: 'boolean' },
};

function runOptions(): Record<string, OptionSpec> {
  const out: Record<string, OptionSpec> = { ...BASE_RUN_OPTIONS };
  for (const o of methodRegistry.options()) out[o.flag] = { type: 'string' };
  return out;
}

function parse(argv: string[], options: Record<string, OptionSpec>, command: string) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    const msg = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new UserError(`bench ${command}: ${msg.replace(/^TypeError \[[A-Z_]+\]: /, '')} (see bench ${command} --help)`);
  }
}

export function parseInteger(raw: string | undefined, flag: string, min: number, fallback?: number, max?: number): number {
  if (raw === undefined) {
    if (fallback === undefined) throw new UserError(`${flag} is required`);
    return fallback;
  }
  if (!/^-?\d+$/.test(raw.trim())) throw new UserError(`${flag} must be a whole number, got '${raw}'`);
  const n = Number(raw);
  if (n < min) throw new UserError(`${flag} must be at least ${min}, got ${n}`);
  if (max !== undefined && n > max) throw new UserError(`${flag} must be at most ${max}, got ${n}`);
  return n;
}

export function parseNumber(raw: string | undefined, flag: string, min: number, max: number, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < min || n > max) throw new UserError(`${flag} must be a number in [${min}, ${max}], got '${raw}'`);
  return n;
}

/** `--shard i/n` or `--shard auto[/n]` (harness/config/shard.ts; `auto` reads the job system's environment). */
export function parseShard(raw: string | undefined, env: ShardEnv = process.env): { index: number; count: number } | undefined {
  return resolveShard(raw, env);
}

function parseMethods(raw: string | undefined): string[] {
  const names = (raw ?? 'memagent').split(',').map((x) => x.trim()).filter(Boolean);
  if (names.length === 0) throw new UserError(`--method is empty: use one or more of ${methodRegistry.names().join(', ')}`);
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
      if (!o.choices!.includes(raw)) throw new UserError(`${flag} must be ${o.choices!.map((c) => `'${c}'`).join(' or ')}, got '${raw}'`);
      return raw;
    case 'path':
      if (raw.trim() === '') throw new UserError(`${flag} needs a file path`);
      return raw;
  }
}

/** Every method option's value (defaults filled in); an option given for methods that are not run is refused. */
function parseMethodSettings(values: Record<string, unknown>, chosen: string[]): MethodSettings {
  const settings: Record<string, number | string | undefined> = {};
  for (const o of methodRegistry.options()) {
    const raw = values[o.flag] as string | undefined;
    if (raw !== undefined) {
      const users = methodRegistry.usersOf(o.flag);
      if (!users.some((u) => chosen.includes(u))) throw new UserError(`--${o.flag} applies to ${users.join(', ')}, which this run does not use (--method ${chosen.join(',')})`);
    }
    settings[o.flag] = parseMethodOption(o, raw);
  }
  return settings;
}

function parseModel(model: string | undefined, endpoints: string[] | undefined): 'local' | string[] {
  const urls = [...(endpoints ?? [])];
  if (model !== undefined && model !== 'local') urls.unshift(model);
  if (model === 'local' && urls.length > 0) throw new UserError('--model local cannot be combined with --endpoint: pick the embedded model or endpoints');
  if (urls.length === 0) return 'local';
  for (const u of urls) {
    let parsed: URL;
    try {
      parsed = new URL(u);
    } catch {
      throw new UserError(`bad endpoint '${u}': expected 'local' or an http(s) URL such as http://127.0.0.1:8000/v1`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UserError(`bad endpoint '${u}': only http and https URLs are supported`);
    if (parsed.username || parsed.password) throw new UserError(`endpoint '${parsed.host}' has credentials in the URL: pass the key through --api-key-env instead`);
  }
  return urls;
}

function parseRun(argv: string[], env: ShardEnv, parsed = parse(argv, runOptions(), 'run')): RunConfig {
  const { values, positionals } = parsed;
  if (positionals.length === 0) throw new UserError('bench run needs a task, e.g. `bench run ruler-hqa --lengths 32k..3.5m` (see `bench tasks`)');
  if (positionals.length > 1) throw new UserError(`bench run takes one task argument (comma-separate several), got: ${positionals.join(' ')}`);
  const tasks = positionals[0].split(',').map((s) => s.trim()).filter(Boolean);
  const model = parseModel(values.model as string | undefined, values.endpoint as string[] | undefined);
  if (model !== 'local' && !values['model-name']) throw new UserError('--model-name is required with an endpoint (the model name the server serves, e.g. BytedTsinghua-SIA/RL-MemoryAgent-14B)');
  const options: Record<string, string> = {};
  if (values.placement !== undefined) options.placement = values.placement as string;
  if (values.data !== undefined) options.data = values.data as string;
  const lengthSpec = values.lengths as string | undefined;
  const methods = parseMethods(values.method as string | undefined);
  return {
    tasks,
    lengthSpec,
    lengths: lengthSpec === undefined ? undefined : parseLengths(lengthSpec),
    samples: values.samples === undefined ? undefined : parseInteger(values.samples as string, '--samples', 1),
    seed: parseInteger(values.seed as string | undefined, '--seed', 0, 42),
    out: values.out as string | undefined,
    methods,
    methodSettings: parseMethodSettings(values, methods),
    model,
    modelName: values['model-name'] as string | undefined,
    apiKeyEnv: values['api-key-env'] as string | undefined,
    concurrency: parseInteger(values.concurrency as string | undefined, '--concurrency', 1, values['server-batch'] === undefined ? 16 : 256),
    requestsPerEndpoint: parseInteger(values['requests-per-endpoint'] as string | undefined, '--requests-per-endpoint', 1, 64),
    tokenizer: (values.tokenizer as string | undefined) ?? 'qwen2.5',
    options,
    shard: parseShard(values.shard as string | undefined, env),
    workers: values.workers === undefined ? undefined : parseInteger(values.workers as string, '--workers', 1),
    progress: !values['no-progress'],
    trial: parseInteger(values.trial as string | undefined, '--trial', 0, 0),
    cache: !values['no-cache'],
    storePrompts: Boolean(values['store-prompts']),
    retry429: !values['no-retry-429'],
    retryErrors: Boolean(values['retry-errors']),
    dryRun: Boolean(values['dry-run']),
    serverBatch: values['server-batch'] === undefined ? undefined : parseInteger(values['server-batch'] as string, '--server-batch', 1),
    requestTimeoutMs: values['request-timeout'] === undefined ? undefined : Math.round(parseNumber(values['request-timeout'] as string, '--request-timeout', 0.1, 86400, 60) * 1000),
    retryBaseMs: values['retry-base-ms'] === undefined ? undefined : parseInteger(values['retry-base-ms'] as string, '--retry-base-ms', 1),
    cacheDebug: Boolean(values['cache-debug']),
  };
}

/** `bench plan`: a `bench run` command line plus the hardware to predict on, or a run directory to calibrate from. */
function parsePlan(argv: string[], env: ShardEnv): Command {
  const parsed = parse(argv, { ...runOptions(), ...PLAN_OPTIONS }, 'plan');
  const v = parsed.values;
  const str = (k: string) => v[k] as string | undefined;
  const calibrate = str('calibrate');
  if (calibrate !== undefined && calibrate.trim() === '') throw new UserError('--calibrate needs a run directory');
  if (parsed.positionals.length === 0 && calibrate === undefined) {
    throw new UserError('bench plan needs a task (the `bench run` command line to plan, e.g. `bench plan ruler-hqa --lengths docs:50..25600`) or --calibrate RUN_DIR');
  }
  return {
    command: 'plan',
    config: parsed.positionals.length > 0 ? parseRun(argv, env, parsed) : undefined,
    simulate: str('simulate'), calibrate, timeScale: str('time-scale'), outputTokens: str('output-tokens'), json: Boolean(v.json),
  };
}

function one(positionals: string[], what: string, command: string): string {
  if (positionals.length !== 1) throw new UserError(`bench ${command} takes exactly one ${what}, got ${positionals.length}`);
  return positionals[0];
}

/** Pure: argv (without node and script) and the environment (`--shard auto` reads it) → a command. Throws UserError on bad input. */
export function parseCli(argv: string[], env: ShardEnv = process.env): Command {
  const [head, ...rest] = argv;
  if (head === undefined || head === '--help' || head === '-h' || head === 'help') return { command: 'help', topic: head === 'help' ? rest[0] : undefined };
  if (head === '--version' || head === '-v') return { command: 'version' };
  if (rest.includes('--help') || rest.includes('-h')) return { command: 'help', topic: head };
  switch (head) {
    case 'tasks':
      if (rest.length > 0) throw new UserError(`bench tasks takes no arguments, got: ${rest.join(' ')}`);
      return { command: 'tasks' };
    case 'run':
      return { command: 'run', config: parseRun(rest, env) };
    case 'plan':
      return parsePlan(rest, env);
    case 'generate': {
      const { values, positionals } = parse(rest, {
        lengths: { type: 'string' }, samples: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' },
        format: { type: 'string' }, tokenizer: { type: 'string' }, placement: { type: 'string' }, data: { type: 'string' },
      }, 'generate');
      const task = one(positionals, 'task', 'generate');
      const format = (values.format as string | undefined) ?? 'native';
      if (format !== 'ruler' && format !== 'memagent' && format !== 'native') throw new UserError(`--format must be ruler, memagent or native, got '${format}'`);
      if (!values.out) throw new UserError('bench generate needs --out FILE.jsonl');
      const options: Record<string, string> = {};
      if (values.placement !== undefined) options.placement = values.placement as string;
      if (values.data !== undefined) options.data = values.data as string;
      const lengthSpec = values.lengths as string | undefined;
      return {
        command: 'generate', task, lengthSpec, lengths: lengthSpec === undefined ? undefined : parseLengths(lengthSpec),
        samples: values.samples === undefined ? undefined : parseInteger(values.samples as string, '--samples', 1),
        seed: parseInteger(values.seed as string | undefined, '--seed', 0, 42), out: values.out as string, format,
        tokenizer: (values.tokenizer as string | undefined) ?? 'qwen2.5', options,
      };
    }
    case 'score': {
      const { values, positionals } = parse(rest, { format: { type: 'string' }, json: { type: 'boolean' } }, 'score');
      const format = (values.format as string | undefined) ?? 'auto';
      if (!['auto', 'memagent', 'ruler', 'longbench'].includes(format)) throw new UserError(`--format must be memagent, ruler or longbench, got '${format}'`);
      return { command: 'score', target: one(positionals, 'run directory or predictions file', 'score'), format: format as 'auto', json: Boolean(values.json) };
    }
    case 'report': {
      const { values, positionals } = parse(rest, { out: { type: 'string' }, paper: { type: 'boolean' } }, 'report');
      if (positionals.length === 0) throw new UserError('bench report needs at least one run directory');
      return { command: 'report', runDirs: positionals, out: values.out as string | undefined, paper: Boolean(values.paper) };
    }
    case 'gate': {
      const { values, positionals } = parse(rest, {
        baseline: { type: 'string' }, 'max-drop': { type: 'string' }, 'max-errors': { type: 'string' }, junit: { type: 'string' }, z: { type: 'string' },
        exact: { type: 'boolean' },
      }, 'gate');
      if (!values.baseline) throw new UserError('bench gate needs --baseline FILE');
      return {
        command: 'gate', runDir: one(positionals, 'run directory', 'gate'), baseline: values.baseline as string,
        maxDrop: values['max-drop'] === undefined ? undefined : parseNumber(values['max-drop'] as string, '--max-drop', 0, 100, 0),
        maxErrors: values['max-errors'] === undefined ? undefined : parseInteger(values['max-errors'] as string, '--max-errors', 0),
        junit: values.junit as string | undefined,
        z: values.z === undefined ? undefined : parseNumber(values.z as string, '--z', 0, 10, 2),
        exact: Boolean(values.exact),
      };
    }
    case 'baseline': {
      const { values, positionals } = parse(rest, { out: { type: 'string' } }, 'baseline');
      if (!values.out) throw new UserError('bench baseline needs --out FILE.json');
      return { command: 'baseline', runDir: one(positionals, 'run directory', 'baseline'), out: values.out as string };
    }
    case 'merge': {
      const { values, positionals } = parse(rest, { out: { type: 'string' } }, 'merge');
      if (positionals.length === 0) throw new UserError('bench merge needs shard directories');
      if (!values.out) throw new UserError('bench merge needs --out DIR');
      return { command: 'merge', shardDirs: positionals, out: values.out as string };
    }
    case 'serve': {
      const { values, positionals } = parse(rest, {
        host: { type: 'string' }, port: { type: 'string' }, 'model-name': { type: 'string' }, 'api-key-env': { type: 'string' },
        'latency-ms': { type: 'string' }, 'latency-per-token-ms': { type: 'string' }, 'fail-5xx': { type: 'string' }, 'fail-429': { type: 'string' },
        'retry-after': { type: 'string' }, 'fail-reset': { type: 'string' }, 'fail-malformed': { type: 'string' }, 'fail-hang': { type: 'string' },
        seed: { type: 'string' }, 'max-context': { type: 'string' }, tokenizer: { type: 'string' }, simulate: { type: 'string' }, 'time-scale': { type: 'string' },
      }, 'serve');
      if (positionals.length > 0) throw new UserError(`bench serve takes no positional arguments, got: ${positionals.join(' ')}`);
      return { command: 'serve', options: values as Record<string, string | boolean | undefined> };
    }
    default:
      throw new UserError(`unknown command '${head}': use run, plan, tasks, generate, score, report, gate, baseline, merge or serve (see bench --help)`);
  }
}
