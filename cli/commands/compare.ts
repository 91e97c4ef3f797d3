// `bench compare A B` (two run directories: A the baseline, B the candidate) and `bench compare RUN --methods A,B`
// (two methods of one run): per task × method × length both scores, B − A over the shared sample ids with its paired
// bootstrap 95% interval, the exact McNemar (0/1 scores) or sign-flip p-value, the Holm verdict across the rows, the
// gate's tolerance, and whether B is worse. The rule is documented in reports/compare.ts.
// Exit codes: 0 B is not worse anywhere, 1 B is worse at some row, 2 usage or input error.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { UserError, errorMessage } from '../../harness/errors.js';
import { writeFileAtomic } from '../../harness/run-dir/atomic-write.js';
import type { SampleRecord } from '../../harness/types.js';
import type { CommandIO, CommandOf } from '../../harness/config/commands.js';
import type { FigureOptions, ReportFacet } from '../../harness/report/facet.js';
import { builtinCatalog } from '../../generators/index.js';
import type { CliContext } from '../context.js';
import { captionFiles, chartOptions, writeCharts } from '../../reports/charts/index.js';
import {
  COMPARE_CSV_EXTRA,
  compareColumns,
  formatCompare,
  judgeRows,
  ruleText,
  type CompareRow,
  type CompareRuleOptions,
} from '../../reports/compare.js';
import { loadManifestView } from '../../reports/manifest.js';
import { checkProtocolChange, protocolChangeWarning } from '../../reports/protocol-change.js';
import { modelLabel } from '../../reports/format.js';
import {
  contentDifferences,
  DEFAULT_ALPHA,
  pairMethods,
  pairRuns,
  runContent,
  type DiffRow,
  type RunContent,
  type RunPairing,
} from '../../reports/paired.js';
import { diffCsv, diffJson, holmSentence, markdownTable, PAIRED_NOTE } from '../../reports/paired-report.js';
import { loadRecords } from '../../reports/records.js';
import { plural } from '../../harness/util/plural.js';

export interface CompareCommandOptions extends CompareRuleOptions {
  /** Two run directories (A, B), or one with `methods` = [A, B]. */
  dirs: string[];
  methods?: string[];
  /** Also write compare.csv, compare.json, compare.md and the difference charts (charts/difference-*) here. */
  out?: string;
  /** Print compare.json's document (plus the files written) instead of the table. */
  json?: boolean;
  print?: (text: string) => void;
  printError?: (text: string) => void;
  /** The families' report facets (their paper tables place docs:N lengths). Default: the built-in catalog's. */
  facets?: readonly ReportFacet[];
  /** The difference charts' formats, sizes and title (--format, --size, --no-title). */
  figures?: FigureOptions;
  /** Compare runs whose request fingerprints differ (each differing field is still named). */
  allowProtocolChange?: boolean;
}

export interface CompareResult {
  rows: CompareRow[];
  exitCode: 0 | 1;
  files: string[];
}

/** "runs/x — model (methods: a, b)" for a run directory. */
function describe(dir: string, records: SampleRecord[], listMethods = true): string {
  const manifest = loadManifestView(dir, () => {});
  const model = manifest?.model?.id ?? records[0]?.model;
  const methods = [...new Set(records.map((r) => r.method))].sort().join(', ');
  return `run ${dir}${model ? `, model ${modelLabel(model, manifest?.model?.isReferenceReader)}` : ''}${listMethods && methods ? ` (methods: ${methods})` : ''}`;
}

/** One line on ids that both runs hold with other samples under them: why, and that they are not paired. */
function otherContentNote(pairing: RunPairing, content: { a: RunContent; b: RunContent }): string {
  const tasks = new Set(pairing.rows.filter((r) => r.otherContent).map((r) => r.task));
  const why = contentDifferences(content.a, content.b, tasks);
  const unpaired = pairing.rows.filter((r) => r.otherContent && !r.paired).length;
  return (
    `${plural(pairing.otherContent, 'sample id')} held by both runs ${pairing.otherContent === 1 ? 'names' : 'name'} other samples in each (${why.length ? `built with another ${why.join(', ')}` : 'their task version, question or answers differ'}), so they are not paired` +
    `${unpaired ? `; ${plural(unpaired, 'row')} left without a shared sample ${unpaired === 1 ? 'uses' : 'use'} the unpaired rule` : ''}; rerun B with A's settings to pair them`
  );
}

/** The comparison without printing; UserError on bad input or nothing to compare. */
export async function runCompare(
  options: CompareCommandOptions,
): Promise<CompareResult & { text: string; json: Record<string, unknown> }> {
  const warn = (m: string) => (options.printError ?? ((t: string) => process.stderr.write(`${t}\n`)))(`warning: ${m}`);
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  let rows: DiffRow[];
  let aName: string;
  let bName: string;
  const notes: string[] = [];
  if (options.dirs.length === 1) {
    const [ma, mb] = options.methods ?? [];
    if (!ma || !mb || options.methods!.length !== 2)
      throw new UserError('bench compare RUN needs --methods A,B (two methods of that run)');
    const records = await loadRecords(options.dirs[0], { onWarning: warn });
    rows = pairMethods(records, ma, mb);
    aName = `method ${ma} in ${describe(options.dirs[0], records, false)}`;
    bName = `method ${mb} in the same run`;
  } else if (options.dirs.length === 2) {
    const [ma, mb] = options.dirs.map((d) => loadManifestView(d)?.manifest);
    // Runs that sent other requests (template, answer prefix, decoding, ...) are refused before anything is paired.
    const changed = checkProtocolChange(
      { label: `A (${options.dirs[0]})`, manifest: ma },
      { label: `B (${options.dirs[1]})`, manifest: mb },
      Boolean(options.allowProtocolChange),
    );
    if (changed.length > 0) {
      (options.printError ?? ((t: string) => process.stderr.write(`${t}\n`)))(protocolChangeWarning(changed));
      notes.push(`requests differ (--allow-protocol-change): ${changed.join('; ')}`);
    }
    const [a, b] = await Promise.all(options.dirs.map((d) => loadRecords(d, { onWarning: warn })));
    const content = { a: runContent(ma), b: runContent(mb) };
    const pairing = pairRuns(a, b, {
      aLabel: options.dirs[0],
      bLabel: options.dirs[1],
      methods: options.methods,
      content,
    });
    rows = pairing.rows;
    aName = describe(options.dirs[0], a);
    bName = describe(options.dirs[1], b);
    if (pairing.onlyA.length) notes.push(`only in A (not compared): ${pairing.onlyA.join(', ')}`);
    if (pairing.onlyB.length) notes.push(`only in B (not compared): ${pairing.onlyB.join(', ')}`);
    if (pairing.otherContent > 0) notes.push(otherContentNote(pairing, content));
  } else {
    throw new UserError(
      `bench compare takes two run directories or one with --methods A,B; got ${options.dirs.length}`,
    );
  }
  if (rows.length === 0)
    throw new UserError('nothing to compare: the two sides have no task × method × length in common');
  const judged = judgeRows(rows, options);
  for (const r of judged)
    if (r.paired && r.shared < Math.max(r.a.n, r.b.n))
      notes.push(`${r.task} ${r.lengthLabel}: paired over ${r.shared} shared ids of ${r.a.n} (A) and ${r.b.n} (B)`);
  const text = formatCompare(judged, { ...options, aName, bName, notes });
  const exitCode = judged.some((r) => r.worse) ? 1 : 0;
  const files: string[] = [];
  const json = {
    ...diffJson(judged, alpha),
    a: aName,
    b: bName,
    rule: ruleText(options, judged.filter((r) => r.paired).length),
    exitCode,
  };
  if (options.out) {
    mkdirSync(options.out, { recursive: true });
    const write = (name: string, body: string) => {
      const file = join(options.out!, name);
      writeFileAtomic(file, body);
      files.push(file);
    };
    write('compare.csv', diffCsv(judged, COMPARE_CSV_EXTRA));
    write('compare.json', `${JSON.stringify(json, null, 2)}\n`);
    write(
      'compare.md',
      `# bench compare\n\nA: ${aName}\n\nB: ${bName}\n\n${ruleText(options, judged.filter((r) => r.paired).length)}\n\n${markdownTable(judged, compareColumns(alpha))}\n\n${holmSentence(judged, alpha)}\n\n${PAIRED_NOTE}.\n`,
    );
    const charts = writeCharts(options.out, {
      rows: [],
      records: [],
      facets: options.facets ?? builtinCatalog().reportFacets.all(),
      paper: [],
      paired: judged,
      alpha,
      ...chartOptions(options.figures),
    });
    files.push(...charts.map((c) => c.file), ...captionFiles(charts));
  }
  return { rows: judged, exitCode, files, text, json };
}

/** Runs `bench compare` and returns the exit code; never throws. */
export async function compareCommand(options: CompareCommandOptions): Promise<number> {
  const print = options.print ?? ((t: string) => process.stdout.write(`${t}\n`));
  const printError = options.printError ?? ((t: string) => process.stderr.write(`${t}\n`));
  try {
    const result = await runCompare({ ...options, printError });
    if (options.json) print(JSON.stringify({ command: 'compare', ...result.json, files: result.files }, null, 2));
    else {
      print(result.text);
      for (const f of result.files) print(f);
    }
    return result.exitCode;
  } catch (err) {
    printError(`bench compare: ${err instanceof UserError ? '' : 'internal error: '}${errorMessage(err)}`);
    return 2;
  }
}

export async function compareCli(cmd: CommandOf<'compare'>, io: CommandIO, ctx: CliContext): Promise<number> {
  return compareCommand({
    facets: (await ctx.catalog()).reportFacets.all(),
    dirs: cmd.dirs,
    methods: cmd.methods,
    alpha: cmd.alpha,
    maxDrop: cmd.maxDrop,
    z: cmd.z,
    out: cmd.out,
    json: cmd.json,
    ...(cmd.allowProtocolChange ? { allowProtocolChange: true } : {}),
    ...(cmd.figures ? { figures: cmd.figures } : {}),
    print: io.out,
    printError: io.err,
  });
}
