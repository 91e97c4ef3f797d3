import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot, packageVersion } from '../paths.js';

function gitState(): { commit: string | null; dirty: boolean | null } {
  const root = packageRoot();
  if (!existsSync(join(root, '.git'))) return { commit: null, dirty: null };
  try {
    const opts = {
      cwd: root,
      encoding: 'utf8' as const,
      stdio: ['ignore', 'pipe', 'ignore'] as ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    };
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], opts).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], opts).trim() !== '';
    return { commit, dirty };
  } catch {
    return { commit: null, dirty: null };
  }
}

function depVersion(name: string): string | null {
  try {
    return JSON.parse(readFileSync(join(packageRoot(), 'node_modules', name, 'package.json'), 'utf8'))
      .version as string;
  } catch {
    return null;
  }
}

/** Versions and source state recorded in every manifest (`environment`), so a number can be traced to its code. */
export interface EnvironmentInfo {
  memagent_bench: string;
  /** process.version, e.g. "v20.19.0". */
  node: string;
  /** `${process.platform}-${process.arch}`. */
  platform: string;
  /** Versions of result-relevant dependencies; null when not installed. */
  packages: { openai: string | null; tiktoken: string | null };
  /** The checkout's HEAD and whether tracked files were modified; nulls outside a git checkout. */
  git: { commit: string | null; dirty: boolean | null };
}

/** Versions and source state recorded in every manifest, so a number can be traced to the code that made it. */
export function environmentInfo(): EnvironmentInfo {
  return {
    memagent_bench: packageVersion(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    packages: { openai: depVersion('openai'), tiktoken: depVersion('tiktoken') },
    git: gitState(),
  };
}
