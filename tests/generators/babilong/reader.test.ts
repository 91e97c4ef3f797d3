// The embedded reader on BABILong through the real binary: MemAgent answers qa1, qa2 and qa6 from the prompt text
// alone; on qa1 its memory after the last chunk is the asked person's latest move.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from '../../helpers/cli.js';
import { babilongReaderSkill } from '../../../generators/babilong/reader-skill.js';

const root = mkdtempSync(join(tmpdir(), 'babilong-reader-'));
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

test('MemAgent on the reference reader answers qa1, qa2 and qa6, its memory the latest move of the person asked about', async () => {
  const out = join(root, 'run');
  const r = await runBench(
    ['run', 'qa1,qa2,qa6', '--method', 'memagent', '--lengths', '0k,8k', '--samples', '4', '--no-progress', '--out', out],
    { cwd: root, env: { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') } },
  );
  assert.equal(r.code, 0, r.stderr);
  const samples = lines(join(out, 'samples.jsonl'));
  assert.equal(samples.length, 24);
  for (const s of samples) assert.equal(s.score, 1, `${s.id}: ${s.prediction} for ${s.answers}`);
  const lastMemory = new Map<string, string>();
  for (const m of lines(join(out, 'memory.jsonl'))) if (typeof m.memory === 'string') lastMemory.set(m.sampleId as string, m.memory);
  for (const s of samples.filter((x) => x.task === 'qa1')) {
    const person = /^Where is (\w+)\?/.exec(s.question as string)![1];
    const move = new RegExp(`^${person} (went back|moved|went|journeyed|travelled) to the ${(s.answers as string[])[0]}\\.$`);
    assert.match(lastMemory.get(s.id as string) ?? '', move, `${s.id}`);
  }
});

test('qa2: the object goes with its holder and stays where it was put down, through memory as through the text', () => {
  const q = babilongReaderSkill.question!('Where is the football? ')!;
  const story = [
    'Mary went to the kitchen. The sea was calm that morning, and Ahab went to the deck.',
    'Mary got the football there. John journeyed to the garden.',
    'Mary travelled to the office. Mary dropped the football.',
    'Mary went back to the hallway. Sandra picked up the apple there.',
  ];
  assert.equal(q.answerFromText!(story.join(' ')), 'The football is in the office.');
  assert.equal(q.answerFromText!(story.slice(0, 2).join(' ')), 'The football is in the kitchen.');
  let memory = 'No previous memory';
  const seen: string[] = [];
  for (const section of story) {
    memory = q.updateMemory!(memory, section, 1024);
    seen.push(section);
    assert.equal(q.answerFromMemory!(memory), q.answerFromText!(seen.join(' ')), memory);
  }
  assert.equal(babilongReaderSkill.question!('Where was the football before the kitchen?'), null);
});
