#!/usr/bin/env node
// How far each benchmark family's code spreads: the source files outside the family's folder whose code (comments
// stripped) names something specific to the family. Tests, bench/ and docs are not counted. A family's `except`
// names what its pattern would match but belongs to another family: it is removed before the test. Usage:
//   node scripts/family-spread.mjs [--list]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const FAMILIES = [
  {
    name: 'longbench',
    home: 'generators/longbench/',
    re: /longbench|lsht|passage_retrieval|passage_count|multi_news|all_classes|qa_f1|code_sim|pltrdy/i,
  },
  { name: 'ruler', home: 'generators/ruler/', re: /niah|string_match|haystack|needle|ruler(?![-_ ]?hqa)/i },
  {
    name: 'ruler-hqa',
    home: 'generators/ruler-hqa/',
    re: /ruler[-_]hqa|hotpot|ctx-dist|placement|memagent-hqa|supporting_facts/i,
    // LongBench's dataset `hotpotqa` (lower case, a whole word: its task, prompt and fixture names) is LongBench's;
    // HotpotQA's reader, records and messages (loadHotpot, HotpotRecord, "HotpotQA ...") still count.
    except: /\bhotpotqa\b/g,
  },
];
const ROOTS = ['harness', 'cli', 'generators', 'reports', 'reference', 'datasets', 'baselines'];
const root = process.cwd();
const files = [];
const walk = (d) => {
  for (const e of readdirSync(d)) {
    const p = join(d, e);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.(ts|mts)$/.test(e)) files.push(relative(root, p));
  }
};
for (const r of ROOTS) {
  try {
    walk(join(root, r));
  } catch {
    // a folder this checkout does not have
  }
}
const code = (src) =>
  src
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((l) => l.replace(/(^|[^:'"`])\/\/.*$/, '$1'))
    .join('\n');
const list = process.argv.includes('--list');
for (const f of FAMILIES) {
  const hits = files.filter((p) => {
    if (p.startsWith(f.home)) return false;
    const text = code(readFileSync(p, 'utf8'));
    return f.re.test(f.except ? text.replace(f.except, '') : text);
  });
  const folders = new Set(hits.map((p) => p.split('/').slice(0, -1).join('/')));
  console.log(`${f.name}: ${hits.length} files in ${folders.size} folders outside ${f.home}`);
  if (list) for (const h of hits) console.log(`  ${h}`);
}
