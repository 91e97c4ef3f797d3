// The README's numbers against the commands that print them (scripts/readme/): the seconds-long claims run here
// against the built binary (needs `npm run build`); the minutes-long ones (the Quick-start run, the paired example) in
// `npx tsx scripts/check-readme.ts --tier script`, which CI runs. Every test here can fail: a copy of the README with a
// checked number changed is refused, marker by marker.
import { afterAll, beforeAll, describe, test } from 'vitest';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRunner } from '../../../scripts/readme/bench-process.js';
import { compareClaim, coverageProblems, scanDocs } from '../../../scripts/readme/check.js';
import { CLAIMS, parsePaired, type Claim, type ClaimContext } from '../../../scripts/readme/claims.js';
import { compareMarker, type Expected } from '../../../scripts/readme/compare.js';
import { findMarkers, type Marker } from '../../../scripts/readme/markers.js';
import { timed } from '../../../scripts/readme/measurements.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The text with its first digit replaced by the next one (9 → 0). */
const bumpFirstDigit = (text: string) => text.replace(/\d/, (d) => String((Number(d) + 1) % 10));

describe('markers', () => {
  test('every marker in README.md and docs/SIMULATION.md is well formed and has a claim or a way to re-measure it', () => {
    const { markers, problems } = scanDocs(root);
    assert.deepEqual(problems, []);
    assert.deepEqual(coverageProblems(markers), []);
    assert.ok(markers.some((m) => m.id === 'quickstart-table' && m.block));
  });

  test('a claim whose marker was deleted, and a marker no claim knows, are reported', () => {
    const copy = readme
      .replace('<!-- checked: dry-run-example -->', '')
      .replace('<!-- checked: pool-paragraphs -->', '<!-- checked: pool-paragraph -->');
    const problems = coverageProblems(scanDocs(root, { 'README.md': copy }).markers);
    assert.ok(
      problems.some((p) => p.includes('claim "dry-run-example" has no')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.includes('"checked: pool-paragraph" has no claim')),
      problems.join('\n'),
    );
  });

  test('malformed markers: no closing comment, a block marker away from a fence, a marker that starts a line', () => {
    const scan = findMarkers(
      'x.md',
      [
        'a <!-- checked: open -->12 and no end',
        '<!-- checked: lone -->',
        'text, not a fence',
        'b',
        '<!-- checked: first -->3 starts the line<!-- /checked -->',
      ].join('\n'),
    );
    assert.deepEqual(scan.markers, []);
    assert.equal(scan.problems.length, 3, scan.problems.join('\n'));
    assert.match(scan.problems[0], /^x\.md:1: "checked: open" has no <!-- \/checked -->/);
    assert.match(scan.problems[1], /^x\.md:2: .* must stand just above a fenced block/);
    assert.match(scan.problems[2], /^x\.md:5: .* starts a line/);
  });

  test('inline text may wrap over lines; a block is the fenced text under its marker', () => {
    const scan = findMarkers(
      'x.md',
      'at <!-- checked: a -->1,024\n  samples<!-- /checked -->.\n\n<!-- checked: b -->\n```\nx  1\n```\n',
    );
    assert.deepEqual(scan.problems, []);
    assert.deepEqual(
      scan.markers.map((m) => [m.id, m.block, m.text, m.line]),
      [
        ['a', false, '1,024 samples', 1],
        ['b', true, 'x  1', 4],
      ],
    );
  });
});

describe('compare', () => {
  const inline = (text: string): Marker => ({ kind: 'checked', id: 't', file: 'x.md', line: 1, block: false, text });
  const values: Expected = { kind: 'values', values: ['1,024', '1.00B', '201,998'] };

  test('values: the same numbers agree; a changed number, a changed unit or an extra number do not', () => {
    assert.equal(compareMarker(inline('1,024 samples, 1.00B context tokens, 201,998 model calls'), values), undefined);
    assert.match(compareMarker(inline('1,024 samples, 1.01B context tokens, 201,998 calls')!, values)!, /"1\.00B"/);
    assert.match(compareMarker(inline('1,024 samples, 1.00M context tokens, 201,998 calls'), values)!, /"1\.00B"/);
    assert.match(
      compareMarker(inline('1,024 samples, 1.00B tokens, 201,998 calls in 90 s'), values)!,
      /no command checks: "90"/,
    );
    // A value is a whole token: 1,0245 does not hold 1,024, nor 201,998.5 hold 201,998.
    assert.ok(compareMarker(inline('1,0245 samples, 1.00B, 201,998 calls'), values));
    assert.ok(compareMarker(inline('1,024 samples, 1.00B, 201,998.5 calls'), values));
  });

  test("excerpt: the README's Quick-start table is found in output that holds it; a changed score is not", () => {
    const block = findMarkers('README.md', readme).markers.find((m) => m.id === 'quickstart-table')!;
    const [header, ...rows] = block.text.split('\n');
    const output = [
      'ruler-hqa · memagent · local:reference-reader-v1',
      header,
      '------  ---',
      ...rows,
      'results: runs/x',
    ];
    const expected: Expected = { kind: 'excerpt', output: output.join('\n') };
    assert.equal(compareMarker(block, expected), undefined);
    const changed = { ...block, text: block.text.replace('38.28', '38.29') };
    assert.match(compareMarker(changed, expected)!, /block line 2 .*38\.29.* differs from the output's .*38\.28/);
  });

  test('text: a message agrees up to whitespace and backticks, and not when a word changes', () => {
    const expected: Expected = { kind: 'text', text: 'bench: eval_50.json: item 1: missing field "answers"' };
    assert.equal(
      compareMarker(inline(' `bench: eval_50.json:  item 1: missing field "answers"`'), expected),
      undefined,
    );
    assert.ok(compareMarker(inline('`bench: eval_50.json: item 2: missing field "answers"`'), expected));
  });

  test("the paired example's parser reads B − A, the interval, p, Holm p and the discordant pairs", () => {
    const stdout = [
      'task       length  A             B           n  A ×100  B ×100   B − A           95% CI  test                p  Holm p  significant (Holm, α=0.05)',
      'ruler-hqa  32K     full-context  memagent  128   39.06   38.28   -0.78    [-2.34, 0.00]  McNemar exact  1.0000  1.0000  no',
      'ruler-hqa  1M      full-context  memagent  128   18.75   34.38  +15.62  [+7.81, +24.22]  McNemar exact  0.0005  0.0011  yes',
    ].join('\n');
    const json = JSON.stringify({
      rows: [
        { lengthLabel: '32k', onlyA: 1, onlyB: 0 },
        { lengthLabel: '1m', onlyA: 6, onlyB: 26 },
      ],
    });
    const rows = parsePaired(stdout, json);
    assert.deepEqual(rows.get('1M'), {
      diff: '+15.62',
      ciLow: '+7.81',
      ciHigh: '+24.22',
      p: '0.0005',
      holm: '0.0011',
      significant: true,
      onlyA: 6,
      onlyB: 26,
    });
    assert.equal(rows.get('32K')?.significant, false);
  });
});

describe('the seconds-long claims, against the commands that print them', () => {
  let ctx: ClaimContext;
  const { markers } = scanDocs(root);
  const results = new Map<Claim, Expected>();
  beforeAll(() => {
    ctx = { bench: benchRunner(root), tmp: mkdtempSync(join(tmpdir(), 'readme-claims-')) };
  });
  afterAll(() => rmSync(ctx.tmp, { recursive: true, force: true }));

  for (const claim of CLAIMS.filter((c) => c.tier === 'test')) {
    test(`${claim.marker}: ${claim.command}`, async () => {
      const expected = await claim.expected(ctx);
      results.set(claim, expected);
      assert.deepEqual(compareClaim(claim, expected, markers), []);
    });
  }

  test('every checked marker of these claims, with one digit changed, disagrees with the same output', () => {
    assert.equal(results.size, CLAIMS.filter((c) => c.tier === 'test').length, 'a claim above failed');
    for (const [claim, expected] of results) {
      for (const m of markers.filter((x) => x.kind === 'checked' && x.id === claim.marker)) {
        const mutated = { ...m, text: bumpFirstDigit(m.text) };
        assert.notEqual(mutated.text, m.text, `${m.id} holds no digit`);
        assert.ok(compareMarker(mutated, expected), `${m.id}: "${mutated.text}" was accepted`);
      }
    }
  });

  test("a README copy with the dry-run example's call count edited is refused at its line", () => {
    const claim = CLAIMS.find((c) => c.marker === 'dry-run-example')!;
    const copy = readme.replace(/(<!-- checked: dry-run-example -->)201,998/, '$1201,989');
    assert.notEqual(copy, readme);
    const findings = compareClaim(claim, results.get(claim)!, scanDocs(root, { 'README.md': copy }).markers);
    assert.equal(findings.length, 1);
    assert.match(findings[0].where, /^README\.md:\d+$/);
    assert.match(findings[0].problem, /expected "201,998" here, the text has "201,989/);
  });
});

describe('measurements', () => {
  const argv = [process.execPath, '-e', 'let s = 0; for (let i = 0; i < 1e6; i++) s += i;'];
  test.each([
    ['/usr/bin/time -v', true],
    ["bash's time", false],
  ])('--measure reads wall, user and sys time from %s', async (_name, gnu) => {
    if (gnu && !existsSync('/usr/bin/time')) return;
    const t = await timed(root, argv, process.env, gnu);
    assert.equal(t.code, 0);
    for (const v of [t.wallS, t.userS, t.sysS]) assert.ok(Number.isFinite(v) && v >= 0, JSON.stringify(t));
    if (gnu) assert.ok(t.maxRssMb! > 0, JSON.stringify(t));
  });
});
