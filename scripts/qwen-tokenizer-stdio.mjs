// The harness's Qwen2.5 tokenizer over stdin/stdout, one JSON request per line, for scripts/parity-rivals.py's
// stand-in of the upstream drivers' Hugging Face tokenizer: {"encode": text} -> ids, {"decode": ids} -> text.
// Run `npm run build` first (it reads dist/).
import { createInterface } from 'node:readline';
import { loadTokenizer } from '../dist/harness/tokenizer/index.js';

const tokenizer = loadTokenizer('qwen2.5');
for await (const line of createInterface({ input: process.stdin })) {
  const q = JSON.parse(line);
  const answer = 'encode' in q ? Array.from(tokenizer.encode(q.encode)) : tokenizer.decode(q.decode);
  process.stdout.write(JSON.stringify(answer) + '\n');
}
