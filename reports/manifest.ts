// Reads a run's manifest.json loosely: the fields reports show, everything else kept as-is.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface RunManifest {
  command?: string;
  model?: { id?: string; isReferenceReader?: boolean; [key: string]: unknown };
  seed?: number;
  tokenizer?: string;
  tasks: string[];
  methods: string[];
  lengths: string[];
  versions?: Record<string, unknown>;
  /** The parsed file, unknown fields included. */
  raw: Record<string, unknown>;
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return [];
  return value.map((v) => {
    if (typeof v === 'string') return v;
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const name = o.label ?? o.name ?? o.id;
      if (typeof name === 'string') return name;
    }
    return JSON.stringify(v);
  });
}

/** Length grids as a list, or per task ({task: [labels]}) as "task: a, b". */
function lengthList(value: unknown): string[] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value as Record<string, unknown>).map(([task, labels]) => `${task}: ${strings(labels).join(', ')}`);
  }
  return strings(value);
}

/** Flat "name → version" pairs from a versions/environment object (nested objects flattened one level). */
function versionInfo(value: unknown): Record<string, unknown> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      for (const [k2, v2] of Object.entries(v as Record<string, unknown>)) if (v2 !== null && typeof v2 !== 'object') out[`${k}.${k2}`] = v2;
    } else if (v !== null) out[k] = v;
  }
  return out;
}

/** Parses manifest.json of a run directory; null (with a warning) when absent or unreadable. */
export function readManifest(runDir: string, warn: (m: string) => void = () => {}): RunManifest | null {
  const dir = existsSync(runDir) && statSync(runDir).isDirectory() ? runDir : join(runDir, '..');
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) {
    warn(`${dir}: no manifest.json; the report shows what samples.jsonl holds`);
    return null;
  }
  let raw: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
    raw = parsed as Record<string, unknown>;
  } catch (err) {
    warn(`${file}: unreadable (${(err as Error).message}); ignored`);
    return null;
  }
  const model = typeof raw.model === 'string' ? { id: raw.model } : (raw.model && typeof raw.model === 'object' ? raw.model as RunManifest['model'] : undefined);
  const tokenizer = typeof raw.tokenizer === 'string' ? raw.tokenizer
    : raw.tokenizer && typeof raw.tokenizer === 'object' && typeof (raw.tokenizer as { id?: unknown }).id === 'string' ? (raw.tokenizer as { id: string }).id : undefined;
  const command = typeof raw.command === 'string' ? raw.command : Array.isArray(raw.command) ? strings(raw.command).join(' ') : undefined;
  return {
    command,
    model,
    seed: typeof raw.seed === 'number' ? raw.seed : undefined,
    tokenizer,
    tasks: strings(raw.tasks ?? raw.task),
    methods: strings(raw.methods ?? raw.method),
    lengths: lengthList(raw.lengths ?? raw.lengthGrid ?? raw.grid),
    versions: versionInfo(raw.versions ?? raw.environment),
    raw,
  };
}
