// What reports show of a run's manifest.json, read through harness/run-dir/manifest.ts (the one reader).
import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { errorMessage } from '../harness/errors.js';
import { hasManifest, readManifest, type RunManifest } from '../harness/run-dir/manifest.js';

/** A manifest as reports present it: names and labels as display strings. */
export interface ManifestView {
  command: string;
  model: { id: string; isReferenceReader: boolean };
  seed: number;
  tokenizer: string;
  /** Task names. */
  tasks: string[];
  methods: string[];
  /** One "task: label, label" entry per task. */
  lengths: string[];
  /** Flat "name → version" pairs from the manifest's environment (nested objects flattened one level). */
  versions: Record<string, unknown>;
  /** The manifest itself. */
  manifest: RunManifest;
}

function versionInfo(environment: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(environment)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      for (const [k2, v2] of Object.entries(v as Record<string, unknown>))
        if (v2 !== null && typeof v2 !== 'object') out[`${k}.${k2}`] = v2;
    } else if (v !== null) out[k] = v;
  }
  return out;
}

export function manifestView(m: RunManifest): ManifestView {
  return {
    command: m.command,
    model: { id: m.model.id, isReferenceReader: m.model.isReferenceReader },
    seed: m.seed,
    tokenizer: m.tokenizer,
    tasks: m.tasks.map((t) => t.name),
    methods: m.methods,
    lengths: Object.entries(m.lengths).map(([task, labels]) => `${task}: ${labels.join(', ')}`),
    versions: versionInfo(m.environment),
    manifest: m,
  };
}

/**
 * The manifest of a run directory (or of the directory holding a samples.jsonl path) for a report; null, with a
 * warning, when it is absent or not a valid manifest: a report still shows what samples.jsonl holds.
 */
export function loadManifestView(runDir: string, warn: (m: string) => void = () => {}): ManifestView | null {
  const dir = existsSync(runDir) && statSync(runDir).isDirectory() ? runDir : dirname(runDir);
  if (!hasManifest(dir)) {
    warn(`${dir}: no manifest.json; the report shows what samples.jsonl holds`);
    return null;
  }
  try {
    return manifestView(readManifest(dir));
  } catch (err) {
    warn(`${errorMessage(err)}; ignored`);
    return null;
  }
}
