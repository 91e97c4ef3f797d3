// Checks that every number README.md (and docs/SIMULATION.md) quotes from a command is what the command prints.
// Needs `npm run build` (it runs bin/bench.js).
//
//   npx tsx scripts/check-readme.ts                  every claim: the seconds-long ones (also run by
//                                                    tests/scripts/readme/claims.test.ts) and the minutes-long ones
//                                                    (the Quick-start run, ~2.5 min on 2 cores; the paired example)
//   npx tsx scripts/check-readme.ts --tier script    only the minutes-long ones (CI: .ci/run)
//   npx tsx scripts/check-readme.ts --readme /tmp/README-edited.md   check an edited copy of README.md in its place
//   npx tsx scripts/check-readme.ts --measure quickstart-time [--cold]   re-measure a timing (see --list)
//   npx tsx scripts/check-readme.ts --list           the claims and measurements, with their commands
//
// Exit 0: every marker agrees; 1: some disagree (one block per disagreement); 2: usage.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchRunner } from './readme/bench-process.js';
import { checkClaims, coverageProblems, formatFinding, scanDocs } from './readme/check.js';
import { CLAIMS, type Tier } from './readme/claims.js';
import { MEASUREMENTS } from './readme/measurements.js';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

function usage(message: string): never {
  console.error(`check-readme: ${message}; see the header of scripts/check-readme.ts`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      tier: { type: 'string', default: 'all' },
      readme: { type: 'string' },
      measure: { type: 'string', multiple: true },
      cold: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
    },
  }));
} catch (e) {
  usage((e as Error).message);
}

if (values.list) {
  for (const c of CLAIMS) console.log(`checked  ${c.marker.padEnd(20)} ${c.tier.padEnd(6)} ${c.command}`);
  for (const [id, m] of Object.entries(MEASUREMENTS))
    console.log(`measured ${id.padEnd(20)} ${m.run ? '--measure' : 'by hand  '} ${m.method}`);
  process.exit(0);
}

if (values.measure) {
  for (const id of values.measure) {
    const m = MEASUREMENTS[id];
    if (!m) usage(`no measurement "${id}" (known: ${Object.keys(MEASUREMENTS).join(', ')})`);
    if (!m.run) {
      console.log(`${id}: ${m.what}; measured by hand: ${m.method}`);
      continue;
    }
    const lines = await m.run(root, { cold: values.cold });
    console.log(`\n${id}: ${m.what}`);
    for (const l of lines) console.log(l);
  }
  process.exit(0);
}

const tiers: Tier[] =
  values.tier === 'all' ? ['test', 'script'] : values.tier === 'test' || values.tier === 'script' ? [values.tier] : [];
if (tiers.length === 0) usage(`--tier is test, script or all, not "${values.tier}"`);
if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) usage('no dist/: run `npm run build` first');
if (values.readme && !existsSync(values.readme)) usage(`no file ${values.readme}`);

const texts: Record<string, string> = values.readme ? { 'README.md': readFileSync(values.readme, 'utf8') } : {};
const { markers, problems } = scanDocs(root, texts);
const coverage = coverageProblems(markers);
for (const p of [...problems, ...coverage]) console.error(p);

const tmp = mkdtempSync(join(tmpdir(), 'check-readme-'));
const started = Date.now();
const findings = await checkClaims(markers, { bench: benchRunner(root), tmp }, tiers, (claim, found) => {
  const shown = markers.filter((m) => m.kind === 'checked' && m.id === claim.marker).length;
  console.log(
    `${found.length === 0 ? 'ok  ' : 'FAIL'} ${claim.marker} (${claim.tier}; ${shown} marker(s)): ${claim.command}`,
  );
});
for (const f of findings) console.error(formatFinding(f));
if (values.keep) console.log(`run directories kept in ${tmp}`);
else rmSync(tmp, { recursive: true, force: true });

const bad = problems.length + coverage.length + findings.length;
console.log(
  bad === 0
    ? `check-readme: every checked number agrees with its command (${tiers.join(' + ')}; ${Math.round((Date.now() - started) / 1000)} s)`
    : `check-readme: ${bad} problem(s)`,
);
process.exit(bad === 0 ? 0 : 1);
