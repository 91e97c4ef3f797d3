// Micro-benchmark: milliseconds of one core per memory-update call on ~20 KB sections (≈ 5,000 tokens).
// Usage: npm run bench:reader -- [--summary] [path-to-text-file]
// Without a file it builds a synthetic RULER-HQA-like text from repeated Wikipedia-style paragraphs. With
// --summary the problem is a summarisation instruction (the central-sentence memory of summary-memory.ts).

import { readFileSync } from 'node:fs';
import { referenceReply } from '../reference/builtin-reader.js';

const UPDATE =
  'You are presented with a problem, a section of an article that may contain the answer to the problem, and a previous memory. Please read the provided section carefully and update the memory with the new information that helps to answer the problem. Be sure to retain all relevant details from the previous memory while adding any new, useful information.\n\n<problem> \n{question}\n</problem>\n\n<memory>\n{memory}\n</memory>\n\n<section>\n{chunk}\n</section>\n\nUpdated memory:\n';

function syntheticText(chars: number): string {
  const words =
    'the of and film American born album released band known city county river team season league football player director singer song novel series university located founded'.split(
      ' ',
    );
  const caps =
    'John Mary Smith London Paris Kansas Temple Shirley Archer Corliss Lawrence Hudson Valley Records Entertainment'.split(
      ' ',
    );
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
  const parts: string[] = [];
  let n = 0;
  let doc = 1;
  while (n < chars) {
    const title = `${caps[Math.floor(rand() * caps.length)]} ${caps[Math.floor(rand() * caps.length)]}`;
    const sents: string[] = [];
    const ns = 2 + Math.floor(rand() * 5);
    for (let s = 0; s < ns; s++) {
      const w: string[] = [];
      const nw = 8 + Math.floor(rand() * 20);
      for (let k = 0; k < nw; k++)
        w.push(
          rand() < 0.2
            ? caps[Math.floor(rand() * caps.length)]
            : rand() < 0.05
              ? String(1900 + Math.floor(rand() * 120))
              : words[Math.floor(rand() * words.length)],
        );
      sents.push(`${w.join(' ')}.`);
    }
    const p = `Document ${doc++}:\n${title}\n${sents.join(' ')}`;
    parts.push(p);
    n += p.length + 2;
  }
  return parts.join('\n\n');
}

const args = process.argv.slice(2);
const summary = args.includes('--summary');
const file = args.find((a) => a !== '--summary');
const text = file ? readFileSync(file, 'utf8') : syntheticText(4_000_000);
const question = summary
  ? 'You are given a report by a government agency. Write a one-page summary of the report.'
  : 'What government position was held by the woman who portrayed Corliss Archer in the film Kiss and Tell?';
const windowChars = 20_000;
const fill = (memory: string, chunk: string) =>
  UPDATE.replace('{question}', question)
    .replace('{memory}', () => memory)
    .replace('{chunk}', () => chunk);

// Prompts are built up front so that only the reader is timed.
function run(prompts: number): { ms: number; cpuMs: number; calls: number } {
  let memory = 'No previous memory';
  let total = 0;
  let cpu = 0;
  let calls = 0;
  for (let at = 0; at + windowChars <= text.length && calls < prompts; at += windowChars) {
    const prompt = fill(memory, text.slice(at, at + windowChars));
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    memory = referenceReply([{ role: 'user', content: prompt }], 1024);
    total += performance.now() - t0;
    const c = process.cpuUsage(c0);
    cpu += (c.user + c.system) / 1000;
    calls++;
  }
  return { ms: total, cpuMs: cpu, calls };
}

run(40); // warm-up (JIT)
let best = Infinity;
let bestCpu = Infinity;
let calls = 0;
for (let rep = 0; rep < 3; rep++) {
  const r = run(200);
  calls = r.calls;
  best = Math.min(best, r.ms / r.calls);
  bestCpu = Math.min(bestCpu, r.cpuMs / r.calls);
}
console.log(
  `${summary ? 'summary ' : ''}${calls} update calls on ${windowChars}-char sections (best of 3): ${best.toFixed(3)} ms wall, ${bestCpu.toFixed(3)} ms CPU per call (${(windowChars / 1e3 / best).toFixed(1)} MB/s)`,
);
