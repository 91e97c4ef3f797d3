// Accuracy report for the reference reader on RULER-HQA-style contexts (not a test; prints numbers).
// Usage: node --import tsx tests/reference/reader/eval-hotpot.ts [--from 0] [--n 128] [--chars 131072] [--seed 1] [--full]
//        [--window 524288]  (full context: middle-truncate the prompt to this many characters, as in docs/PROTOCOLS.md §a.9)

import { FULL_CONTEXT_PHRASE, fillTemplate } from '../../../harness/methods/templates.js';
import { referenceReply } from '../../../reference/builtin-reader.js';
import { questionInfo } from '../../../reference/reader/question.js';
import { buildSample, extractPhrase, holdsSentence, loadHotpot, memAgentLoop, subEm } from './fixture.js';

function arg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
}

const from = arg('from', 0);
const n = arg('n', 128);
const chars = arg('chars', 131072);
const seed = arg('seed', 1);
const full = process.argv.includes('--full');
const windowChars = arg('window', 0);
const verbose = process.argv.includes('--verbose');
const records = loadHotpot();
let sub = 0;
let yes = 0;
let no = 0;
let anyGold = 0;
let allGold = 0;
let inMem = 0;
let fullSub = 0;
let updates = 0;
let updateMs = 0;
const byType = new Map<string, [number, number]>();
for (let i = from; i < from + n; i++) {
  const s = buildSample(records, i, chars, seed);
  const t0 = performance.now();
  const r = memAgentLoop(s.record.question, s.context);
  updateMs += performance.now() - t0;
  updates += r.calls - 1;
  const score = subEm(r.prediction, s.record.answer);
  sub += score;
  yes += subEm('yes', s.record.answer);
  no += subEm('no', s.record.answer);
  const held = s.gold.filter((g) => holdsSentence(r.memory, g)).length;
  if (held > 0) anyGold++;
  if (held === s.gold.length) allGold++;
  if (r.memory.toLowerCase().includes(s.record.answer.toLowerCase())) inMem++;
  for (const key of [s.record.type, `answer:${questionInfo(s.record.question).answerType}`]) {
    const bt = byType.get(key) ?? [0, 0];
    byType.set(key, [bt[0] + score, bt[1] + 1]);
  }
  if (full) {
    let prompt = fillTemplate(FULL_CONTEXT_PHRASE, { context: s.context, question: s.record.question });
    if (windowChars > 0 && prompt.length > windowChars) {
      const half = Math.floor(windowChars / 2);
      prompt = prompt.slice(0, half) + prompt.slice(prompt.length - half);
    }
    const raw = referenceReply([{ role: 'user', content: prompt }], 1024);
    fullSub += subEm(extractPhrase(raw), s.record.answer);
  }
  if (verbose)
    console.log(
      `${score ? 'OK ' : '-- '}${i} [${s.record.type}/${questionInfo(s.record.question).answerType}] ${s.record.question} | gold=${s.record.answer} | pred=${r.prediction} | held=${held}/${s.gold.length}`,
    );
}
const f = (x: number) => (x / n).toFixed(3);
console.log(
  `n=${n} from=${from} chars=${chars} seed=${seed}${full && windowChars > 0 ? ` full-context window=${windowChars} chars` : ''}`,
);
console.log(
  `memagent sub-EM ${f(sub)}  always-yes ${f(yes)}  always-no ${f(no)}${full ? `  full-context ${f(fullSub)}` : ''}`,
);
console.log(`memory: any gold ${f(anyGold)}  all gold ${f(allGold)}  answer string in memory ${f(inMem)}`);
for (const [t, [a, b]] of byType) console.log(`  ${t}: ${(a / b).toFixed(3)} (n=${b})`);
console.log(`time: ${(updateMs / updates).toFixed(3)} ms per call (incl. prompt building), ${updates} updates`);
