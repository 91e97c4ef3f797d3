import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelRequest } from '../types.js';
import { writeFileAtomic } from './atomic-write.js';
import { guardIO } from './io-errors.js';

/** prompts/<hh>/<hash>.json: each distinct prompt once; calls.jsonl refers to it by promptHash. */
export class PromptStore {
  private seen = new Set<string>();
  constructor(private dir: string) {}
  put(hash: string, request: ModelRequest): void {
    if (this.seen.has(hash)) return;
    this.seen.add(hash);
    const sub = join(this.dir, hash.slice(0, 2));
    const file = join(sub, `${hash}.json`);
    if (existsSync(file)) return;
    guardIO('writing', file, () => {
      mkdirSync(sub, { recursive: true });
      writeFileAtomic(
        file,
        JSON.stringify({
          messages: request.messages,
          params: request.params,
          // A raw completion prompt, or a continued assistant message (answer prefix as prefill), as sent.
          ...(request.prompt !== undefined ? { prompt: request.prompt } : {}),
          ...(request.continueFinal ? { continueFinal: true } : {}),
        }),
      );
    });
  }
}
