// `bench serve` flags → validated ServeOptions (pure apart from reading the named env variable).
import { UserError } from '../../harness/errors.js';
import { parseFaultSpec, type FaultConfig } from './faults.js';
import { REASONING_MODES, type ReasoningMode } from './reasoning.js';
import { parseSimulateSpec, parseTimeScale, type GpuParams } from '../simulator/gpu-params.js';

export interface ServeOptions {
  host: string;
  port: number;
  modelName: string;
  /** Name of the environment variable holding the required key (recorded; the key itself never is). */
  apiKeyEnv?: string;
  /** The key read from apiKeyEnv; never print or persist it. */
  apiKey?: string;
  maxContext?: number;
  faults: FaultConfig;
  /** Simulated continuous-batching GPU timing (docs/SIMULATION.md). */
  simulate?: { params: GpuParams; timeScale: number };
  /** Answer as a reasoning model (reference/serve/reasoning.ts). */
  reasoning?: ReasoningMode;
}

/** Flag table for help text: [flag, value, description]. */
export const SERVE_FLAGS: readonly (readonly [string, string, string])[] = [
  ['--host', 'H', 'address to listen on (default 127.0.0.1)'],
  ['--port', 'P', 'port (default 8000; 0 = any free port)'],
  ['--model-name', 'NAME', 'model name served at /v1/models (default reference-reader)'],
  ['--api-key-env', 'VAR', 'require `Authorization: Bearer $VAR` (the key is read from that variable)'],
  ['--max-context', 'N', 'reject prompts (+ max_tokens) over N tokens with a 400, like vLLM'],
  ['--max-model-len', 'N', "vLLM's name for --max-context: the window GET /v1/models reports as max_model_len"],
  ['--latency-ms', 'N', 'fixed delay before each answer'],
  ['--latency-per-token-ms', 'N', 'extra delay per prompt token'],
  ['--fail-5xx', 'RATE', 'share of requests answered 500/502/503 (0.1 or 10%)'],
  ['--fail-429', 'RATE', 'share answered 429 with Retry-After'],
  ['--retry-after', 'S', 'seconds sent in Retry-After (default 1)'],
  ['--fail-reset', 'RATE', 'share whose connection is reset'],
  ['--fail-malformed', 'RATE', 'share answered 200 with an invalid JSON body'],
  ['--fail-hang', 'RATE', 'share never answered until the client gives up'],
  ['--seed', 'S', 'seed of the fault draws (default 0)'],
  [
    '--reasoning',
    'MODE',
    'answer as a reasoning model: field (thinking in reasoning_content), inline (<think>…</think> first), unclosed (<think> never closed)',
  ],
  [
    '--simulate',
    'PRESET[,k=v]',
    'take the time a continuous-batching GPU server would (qwen2.5-7b-h100, qwen2.5-14b-h100, qwen2.5-14b-8xh100; docs/SIMULATION.md)',
  ],
  ['--time-scale', 'X', 'with --simulate: simulated seconds per wall-clock second (default 1)'],
];

export type ServeFlagName =
  | 'host'
  | 'port'
  | 'model-name'
  | 'api-key-env'
  | 'max-context'
  | 'max-model-len'
  | 'latency-ms'
  | 'latency-per-token-ms'
  | 'fail-5xx'
  | 'fail-429'
  | 'retry-after'
  | 'fail-reset'
  | 'fail-malformed'
  | 'fail-hang'
  | 'seed'
  | 'reasoning'
  | 'simulate'
  | 'time-scale';

/** Parsed flag values (e.g. node:util parseArgs `values`); keys other than ServeFlagName are ignored. */
export type ServeFlags = Readonly<
  Partial<Record<ServeFlagName, string>> & Record<string, string | boolean | undefined>
>;

function intFlag(name: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < min || n > max)
    throw new UserError(`--${name} expects an integer in ${min}..${max}, got '${raw}'`);
  return n;
}

/** Flag values as typed (e.g. from node:util parseArgs) → ServeOptions. Throws UserError with the flag's name. */
export function serveOptionsFromFlags(raw: ServeFlags, env: NodeJS.ProcessEnv = process.env): ServeOptions {
  const flags: Partial<Record<ServeFlagName, string>> = {};
  for (const [flag] of SERVE_FLAGS) {
    const name = flag.slice(2) as ServeFlagName;
    const v = raw[name];
    if (typeof v === 'boolean') throw new UserError(`${flag} needs a value`);
    if (v !== undefined) flags[name] = v;
  }
  const out: ServeOptions = {
    host: flags.host ?? '127.0.0.1',
    port: flags.port === undefined ? 8000 : intFlag('port', flags.port, 0, 65535),
    modelName: flags['model-name'] ?? 'reference-reader',
    faults: parseFaultSpec({
      latencyMs: flags['latency-ms'],
      latencyPerTokenMs: flags['latency-per-token-ms'],
      fail5xx: flags['fail-5xx'],
      fail429: flags['fail-429'],
      retryAfterS: flags['retry-after'],
      failReset: flags['fail-reset'],
      failMalformed: flags['fail-malformed'],
      failHang: flags['fail-hang'],
      seed: flags.seed,
    }),
  };
  if (out.host === '') throw new UserError('--host must not be empty');
  if (out.modelName === '') throw new UserError('--model-name must not be empty');
  if (flags['max-context'] !== undefined) out.maxContext = intFlag('max-context', flags['max-context'], 1, 2 ** 31);
  if (flags['max-model-len'] !== undefined) {
    const len = intFlag('max-model-len', flags['max-model-len'], 1, 2 ** 31);
    if (out.maxContext !== undefined && out.maxContext !== len)
      throw new UserError('--max-model-len and --max-context name the same window: give one of them');
    out.maxContext = len;
  }
  if (flags.simulate !== undefined)
    out.simulate = { params: parseSimulateSpec(flags.simulate), timeScale: parseTimeScale(flags['time-scale']) };
  else if (flags['time-scale'] !== undefined) throw new UserError('--time-scale only applies with --simulate PRESET');
  const reasoning = flags.reasoning;
  if (reasoning !== undefined) {
    if (!REASONING_MODES.includes(reasoning as ReasoningMode))
      throw new UserError(`--reasoning must be ${REASONING_MODES.map((m) => `'${m}'`).join(', ')}, got '${reasoning}'`);
    out.reasoning = reasoning as ReasoningMode;
  }
  const varName = flags['api-key-env'];
  if (varName !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(varName)) {
      throw new UserError(
        `--api-key-env takes the NAME of an environment variable (e.g. BENCH_KEY), got '${varName.slice(0, 40)}'`,
      );
    }
    const key = env[varName];
    if (!key)
      throw new UserError(
        `environment variable ${varName} (from --api-key-env) is empty: set it to the key clients must send`,
      );
    out.apiKeyEnv = varName;
    out.apiKey = key;
  }
  return out;
}
