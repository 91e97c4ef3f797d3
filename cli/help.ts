// Help text: `bench --help` is the overview; `bench <command> --help` (= `bench help <command>`) lists every flag the
// command's parser accepts (tests/cli/help.test.ts checks that against cli/parse.ts), with exit codes. The families'
// file layouts (--format), score formats, --data layouts, task options (--placement ...) and the tasks that take
// document counts come from the catalog.
import type { TaskOptionCommand } from '../harness/config/task-option.js';
import { methods as registry } from '../harness/methods/index.js';
import type { Catalog } from '../harness/registry/family.js';
import { builtinCatalog } from '../generators/index.js';
import { SERVE_FLAGS } from '../reference/serve/options.js';
import type { Subcommand } from './parse.js';

/** What help reads from the catalog (the built-in one unless given). */
export type HelpCatalog = Pick<
  Catalog,
  | 'taskOptions'
  | 'exportLayouts'
  | 'generateLayouts'
  | 'exportFormats'
  | 'generateFormats'
  | 'scoreSources'
  | 'dataFormats'
  | 'metrics'
  | 'tasks'
>;

const EXIT_CODES = 'Exit codes: 0 ok, 1 harness error, 2 usage or input error.';

const OVERVIEW = `bench — long-context benchmark harness (MemAgent vs long-context baselines)

Usage:
  bench run <task[,task...]> [options]     run a benchmark and print per-length scores
  bench plan <task> [run options] [--simulate PRESET[,k=v]]   predict calls, tokens, wall time and GPU-hours of a run
  bench plan --calibrate <run-dir> [--simulate PRESET] [--time-scale X]   fit the server's timing to a finished run
  bench tasks [--json]                     list tasks
  bench runs [DIR] [--json]                list the run directories under DIR (runs/): grid, status, n, scores
{generateOverview}
  bench score <run-dir|preds.jsonl|dir>    rescore runs or other tools' predictions [--format {scoreFormats}]
                                           [--metric NAME] [--json]
{exportOverview}
  bench report <run-dir>... [--out DIR]    CSV/JSON/markdown summary, report.html and PNG charts [--paper]
  bench gate <run-dir> --baseline FILE     CI regression gate (exit 0 pass, 1 regression, 2 usage/harness error)
                                           --baseline RUN-DIR [--paired [--alpha 0.05]]: paired test over shared sample ids
  bench compare A B | RUN --methods A,B    B against A per task/length: difference, 95% CI, p, Holm verdict (exit 0/1/2)
                                           [--alpha 0.05] [--max-drop P] [--z Z] [--out DIR]
  bench baseline <run-dir> --out FILE      store a run's scores as a gate baseline
  bench merge <shard-dir>... --out DIR     join the shards of a run (--shard i/n)
  bench serve [options]                    the embedded model as an OpenAI-compatible server on 127.0.0.1
  bench view [RUN...] [--port P]           browse runs, samples and a memory agent's memory chunk by chunk (127.0.0.1)

Every command's options: bench <command> --help (or bench help <command>).

Exit codes: 0 ok, 1 harness error (bench gate, bench compare: regression), 2 usage or input error,
  3 bench run finished with errored samples (rerun with --retry-errors), 130 interrupted run (rerun to resume).
`;

const LENGTHS = `  --lengths SPEC        k = 1024, m = 1024²; a..b doubles from a and ends with b (32k..3.5m = 32k,64k,...,2m,3.5m);
{docsLengths}
                        paper = docs:50..25600, the paper's grid (7K … 3.5M)`;

const RUN = `Usage: bench run <task[,task...]> [options]

Runs every (task, length, sample, method) of the run, prints the grid first and one row per length at the end, and
writes manifest.json, samples.jsonl, calls.jsonl, summary.csv and summary.json to the run directory. Rerunning the same
command resumes it. Ctrl-C: no new samples start; samples in flight finish or stop at their next call; finished samples
are saved (Ctrl-C again quits at once).

Options:
${LENGTHS}
  --samples N           samples per length                                              [task default, 128]
  --seed S              data seed                                                       [42]
  --out DIR             run directory; rerunning the same command resumes it   [runs/<task>__<method>__<model>__seed<S>__<hash>]
  --model local|URL     'local' = embedded reference reader (not an LLM); or an OpenAI-compatible base URL  [local]
  --endpoint URL        another endpoint (repeatable); calls go to the least busy one
  --model-name NAME     model name the endpoint serves (required with a URL)
  --api-key-env VAR     name of the environment variable holding the API key (the key is never written anywhere)
  --concurrency N       samples in flight                                               [16; 256 with --server-batch]
  --server-batch N      the server's batch (max_num_seqs × replicas): at most N calls out, longest remaining
                        chain first, so many samples can be in flight without FIFO queueing at the server
  --requests-per-endpoint N  requests in flight per endpoint                            [64]
  --tokenizer NAME      qwen2.5, o200k_base, cl100k_base, gpt-4o                        [qwen2.5]
  --api chat|completions  the route calls take: /chat/completions, or /completions with the prompt text as
                        built (no server chat template)                                 [chat]
  --max-model-len N     the endpoint's context window, when GET /models does not report max_model_len
  --allow-truncation    run even when a method's largest call does not fit the window (checked before the
                        first call; exit 2 otherwise); samples the server rejects end 'truncated'
  --thinking-budget N   thinking tokens per call apart from its answer budget (think, then answer in a second
                        request continuing the first); recorded in the manifest
  --protocol ruler      the ruler tasks' upstream run mode: its prompts (--chat-template, --answer-prefix),
                        greedy decoding, each task's tokens_to_generate, 500 samples at 4k..128k, its scoring
{dataHelp}
{taskOptions:run}
  --shard i/n           run only samples with index mod n = i (merge shards with bench merge); 'auto' or 'auto/n'
                        takes i (and n) from a Kubernetes Indexed Job or Slurm array (README: Scale-out)
  --workers N           worker threads for the embedded model (1: on the main thread)    [CPU cores]
  --worker-heap-mb N    each worker thread's heap; a worker that outgrows it stops the run (exit 3)  [512]
  --trial N             trial index (part of the response-cache key)                   [0]
  --request-timeout S   each attempt's wall limit, exactly S s; a call gives up after 8×S  [60 s + size-based; 15 min]
  --retry-base-ms N     first backoff ceiling (exponential, full jitter; Retry-After is honoured)  [500]
  --retry-errors        on resume, run again the samples that ended as errors (the new line supersedes the old)
  --extend              let this run add tasks, lengths or methods to an --out that holds a run (refused otherwise)
  --no-retry-429        do not wait out rate limits (daily quotas): a 429 ends the sample as an error
  --no-cache            do not reuse cached responses (endpoints; identical calls are free otherwise)
  --cache-debug         print each call's cache key inputs (hashes and parameters, never the prompt)
  --dry-run             count samples, calls and tokens per length (cost estimate); calls no model
  --store-prompts       keep every distinct prompt once under prompts/ (calls.jsonl refers to it by hash)
  --no-memory-trace     do not write memory.jsonl (a memory method's memory after every chunk; on by default)
  --no-progress         no progress on stderr (a bar on a terminal; otherwise a line every 30 s,
                        BENCH_PROGRESS_INTERVAL=seconds to change it)
  --method LIST         methods run side by side over the same samples (comma-separated) [memagent]
{methods}
  --json                print the outcome as one JSON document on stdout: {command, dryRun, exitCode, status
                        (ok|errors|interrupted|rejected), outDir, samples, calls, shard?, summary (summary.json), next};
                        with --dry-run {command, dryRun, exitCode, rows, total}; the grid, table and notes go to stderr
  --no-plan             no predicted calls and wall time (bench plan's model, on its default simulated server) before
                        a run against an endpoint
  --cost-preset P       simulated GPU behind the summary's est_gpu_seconds_per_sample: qwen2.5-7b-h100,
                        qwen2.5-14b-h100, qwen2.5-14b-8xh100                               [qwen2.5-7b-h100]

Exit codes: 0 every sample ok (or truncated by design), 1 harness bug, 2 usage or set-up error (incl. an endpoint
  that cannot serve the run: key rejected, model or route missing, not a chat API, no answer, failing every call;
  the run stops at once; and a server window too small for every sample), 3 finished with errored samples (rerun with --retry-errors)
  or stopped by a worker thread out of memory (rerun with fewer methods, --workers 1 or a larger --worker-heap-mb to
  resume), 130 interrupted (rerun to resume).
`;

const TASKS = `Usage: bench tasks [--json]

Lists the tasks bench run and bench generate accept, with their default lengths and sample counts.

Options:
  --json                print {command, tasks: [{name, description, lengths, samples (null: all), metric,
                        temperature, topP}]} as one JSON document

${EXIT_CODES}
`;

const RUNS = `Usage: bench runs [DIR] [--json]

Lists the run directories under DIR (default runs/, searched 3 levels deep), or DIR itself when it is one: tasks,
grid, methods, model, status (complete: every planned sample finished without error; partial: some not finished,
rerun the same bench run command to resume; errors: finished, some as errors, rerun with --retry-errors), finished
of planned samples × methods, errored samples, and each method's mean score ×100 over its finished samples (every
task and length together; bench report DIR gives the per-length table). A directory that cannot be read is one note
line on stderr and is not listed.

Options:
  --json                print {command, root, runs: [{dir, tasks, lengths, methods, model, shard, status, samples:
                        {finished, planned, errors}, scores}], broken: [{dir, problem}]} as one JSON document

${EXIT_CODES}
`;

const GENERATE = `Usage: bench generate <task> --out PATH [options]

{generateIntro}

Options:
{generateFormat}
${LENGTHS}
  --samples N           samples per length                                              [task default, 128]
  --seed S              data seed                                                       [42]
  --tokenizer NAME      qwen2.5, o200k_base, cl100k_base, gpt-4o                        [qwen2.5]
{dataHelp}
{taskOptions:generate}

${EXIT_CODES}
`;

/** bench plan takes every bench run option (the run to plan) plus its own. */
const PLAN = `Usage: bench plan <task[,task...]> [bench run options] [plan options]
       bench plan --calibrate <run-dir> [--simulate PRESET] [--time-scale X] [--json]

Predicts a run without running it: calls, prompt and completion tokens, the longest chain, and the wall time and
GPU-hours on a simulated server (docs/SIMULATION.md), for the harness's schedule and for lengths one after another,
with the lower bound and the smallest concurrency that reaches it. --calibrate fits the server's timing and the
output lengths to a finished run's calls.jsonl and prints them for reuse.

Plan options (nothing is run, no model is called):
  --simulate PRESET[,k=v]  hardware to predict on (the bench serve presets)               [qwen2.5-7b-h100]
  --output-tokens KIND=MEDIAN[:SIGMA],...  assumed completion lengths   [update=400:0.5,final=60:0.6,answer=60:0.6]
  --calibrate RUN_DIR   fit prefill-tps, step-ms, step-per-seq-ms and output lengths to RUN_DIR's calls.jsonl
  --time-scale X        with --calibrate: the run's server was bench serve --time-scale X
  --json                print the plan or the fit as JSON

bench run options:
{runOptions}

${EXIT_CODES}
`;

const SCORE = `Usage: bench score <run-dir|samples.jsonl|pred-dir|preds.jsonl> [--format F] [--metric NAME] [--json]

{scoreIntro}

Options:
{scoreFormat}
  --metric NAME         score with this metric (e.g. {metricExamples}) instead of the detected one; a
                        metric chosen from a folder name alone is said in a note
  --json                print the table as JSON (means 0..1 and percentages)

${EXIT_CODES}
`;

const EXPORT = `Usage: bench export <run-dir> --format {exportFormats} --out DIR [--tasks LIST]

Writes a run's predictions (the extracted answers the run scored) in the layout a peer tool's own scorer reads:
{exportLayouts}
Errored and truncated samples are exported as empty predictions, and counted.

Options:
  --format F            {exportFormatList} (required)
  --out DIR             the folder the peer tool reads from (required)
  --tasks LIST          only these tasks (comma-separated)                              [every task of the run]

${EXIT_CODES}
`;

const REPORT = `Usage: bench report <run-dir>... [--out DIR] [--paper] [--format F] [--size S] [--no-title] [--dpi N]

Writes summary.csv, summary.json, summary.md, charts (charts/<chart>-<size>.<format>, each with a caption file
charts/<chart>.caption.txt holding its title and notes) and a self-contained report.html. A cell with fewer samples
than its run planned (interrupted run, unfinished shard) shows "n of N", is flagged complete = no in the CSV and JSON,
and is drawn hollow in the accuracy chart.

Options:
  --out DIR             output directory                      [the run directory (one run); bench-out/report (several)]
  --paper               overlay and tabulate the paper's published numbers (baselines/paper/), dashed
  --cost-preset P       simulated GPU behind est_gpu_seconds_per_sample and the cost chart    [qwen2.5-7b-h100]
  --json                print {command, files, summary (summary.json), warnings, paired, html, figures} as
                        one JSON document instead of the file list (figures: formats, sizes, title, dpi)
  --format F            chart formats, comma-separated: png, svg, pdf (vector, text as text)                   [png]
  --size S              single (3.25 in wide), double (6.75 in), or single,double; 8 pt text     [single,double]
  --no-title            leave titles out of the images (the caption files keep them)
  --dpi N               PNG pixels per inch, 72 to 1200, written into each PNG (SVG and PDF are vector)        [300]

${EXIT_CODES}
`;

const GATE = `Usage: bench gate <run-dir> --baseline FILE|RUN-DIR [options]

Compares each (task, method, length) score of the run with the baseline (made by bench baseline). A drop fails when
it exceeds max(--max-drop, z·sqrt(p(1−p)/n)) with the baseline's p and n. A baseline cell missing from the run fails
unless --allow-missing. One rule drives both the printed verdict and the exit code.

Options:
  --baseline FILE       baseline JSON written by bench baseline, or a run directory (required)
  --max-drop P          flat tolerance in points (×100 scale), e.g. 2                   [0]
  --z Z                 multiplier of the binomial standard error sqrt(p(1−p)/n)        [2]
  --max-errors N        fail when the run has more than N errored samples               [no limit]
  --exact               any change of score or n, in either direction, fails (deterministic embedded model)
  --allow-missing       baseline cells the run lacks are skipped instead of failing the gate
  --allow-protocol-change  gate a run whose requests (route, model template, answer-prefix placement,
                        max_tokens, decoding, thinking budget) differ from the baseline's; refused otherwise
  --junit FILE          also write the verdict as JUnit XML (one testcase per cell)
  --paired              with a run directory as the baseline: judge each cell whose samples share ids by the
                        paired test (B − A significantly negative after Holm and beyond --max-drop fails)
  --alpha A             family-wise error rate of the Holm correction for --paired                [0.05]
  --json                print {command, verdict (pass|fail), exitCode, baseline, paired, keys, checks, errors,
                        notes, pairedRows?} as one JSON document instead of the table (nothing on stdout at exit 2)

Exit codes: 0 pass, 1 regression (or a changed or missing cell, or too many errors), 2 usage or harness error.
`;

const COMPARE = `Usage: bench compare <run-A> <run-B> [options]
       bench compare <run> --methods A,B [options]

B against A per task, method and length over the samples both hold: both scores, B − A with its paired-bootstrap
95% interval, a two-sided p (exact McNemar for 0/1 scores, paired sign-flip otherwise), the Holm-adjusted p across
the rows shown, and whether the drop exceeds the gate's tolerance. B is worse where B − A is negative, significant
after Holm and beyond --max-drop; rows without shared sample ids fall back to the gate's tolerance rule.

Options:
  --methods LIST        with one run: the two methods to compare (A,B); with two runs: only these methods
  --alpha A             family-wise error rate of the Holm correction                   [0.05]
  --max-drop P          smallest drop in points (×100) that can fail                    [0]
  --z Z                 multiplier of the binomial standard error for the fallback rule [2]
  --out DIR             also write compare.csv, compare.json, compare.md and the difference chart
  --allow-protocol-change  compare runs whose requests (route, model template, answer-prefix placement,
                        max_tokens, decoding, thinking budget) differ; refused otherwise, each field named
  --json                print compare.json's document {command, alpha, rows, a, b, rule, exitCode, files, ...}
                        instead of the table (nothing on stdout at exit 2)
  --format F            the chart's formats with --out, comma-separated: png, svg, pdf                       [png]
  --size S              single (3.25 in wide), double (6.75 in), or single,double         [single,double]
  --no-title            leave the title out of the chart (its caption file keeps it)
  --dpi N               PNG pixels per inch, 72 to 1200, written into each PNG                               [300]

Exit codes: 0 B is not worse anywhere, 1 B is worse somewhere, 2 usage or input error.
`;

const BASELINE = `Usage: bench baseline <run-dir> --out FILE

Stores a run's per-(task, method, length) scores and sample counts as a baseline for bench gate.

Options:
  --out FILE            baseline JSON to write (required)

${EXIT_CODES}
`;

const MERGE = `Usage: bench merge <shard-dir>... --out DIR

Joins the run directories of one run split with bench run --shard i/n (all n shards, same settings) into one run
directory, and prints its summary.

Options:
  --out DIR             merged run directory (required; replaced if it holds an earlier merge of the same run)

${EXIT_CODES}
`;

const SERVE = `Usage: bench serve [options]

Serves the embedded reference reader as an OpenAI-compatible endpoint (/v1/chat/completions, /v1/completions,
/v1/models), optionally with injected faults, reasoning-model replies or simulated GPU-server timing; prints its URL
and runs until Ctrl-C.

Options:
{serve}
  --tokenizer NAME      tokenizer for usage counts and the --max-context check          [qwen2.5]

${EXIT_CODES}
`;

const VIEW = `Usage: bench view [RUN...] [--port P]

Serves a read-only web view of run directories on 127.0.0.1 (every run directory under runs/ when none is given) and
prints its URL; runs until Ctrl-C. It shows each run's grid with scores and 95% intervals, each cell's samples
(filters: wrong only, errors, over-target), a sample's question, gold, where its evidence lies, the final answer and
the memory after every chunk (memory.jsonl) with what changed and when the gold entered and left it, two methods side
by side on a sample, and the charts bench report wrote. Works offline; it never writes.

Options:
  --port P              port on 127.0.0.1 (0 = any free port)                             [8765]

${EXIT_CODES}
`;

const TOPICS: Record<Subcommand, string> = {
  run: RUN,
  plan: PLAN.replace(
    '{runOptions}',
    RUN.slice(RUN.indexOf('Options:\n') + 9, RUN.lastIndexOf('\n\nExit codes'))
      // bench run's own --json and --no-plan (bench plan's --json is its own; it never runs, so never predicts).
      .replace(/\n {2}--json [^]*?(?=\n {2}--no-plan)/, '')
      .replace(/\n {2}--no-plan [^]*$/, ''),
  ),
  tasks: TASKS,
  runs: RUNS,
  generate: GENERATE,
  score: SCORE,
  export: EXPORT,
  report: REPORT,
  gate: GATE,
  compare: COMPARE,
  baseline: BASELINE,
  merge: MERGE,
  serve: SERVE,
  view: VIEW,
};

function pad(s: string, n: number): string {
  return s.length >= n ? `${s} ` : s.padEnd(n);
}

/** The methods and their options, from the registry, so a new method documents itself. */
function methodsHelp(): string {
  const lines: string[] = [];
  for (const name of registry.names()) lines.push(`    ${pad(name, 18)}${registry.get(name).description}`);
  lines.push('', 'method options (each applies to the methods named after it):');
  for (const o of registry.options()) {
    const arg = o.type === 'choice' ? o.choices!.join('|') : o.type === 'path' ? 'FILE' : 'N';
    const dflt = o.default === undefined ? '' : `  [${o.default}]`;
    // A flag methods describe differently gets one line per description, the flag named on the first.
    registry.helpOf(o.flag).forEach(({ help, methods }, i) => {
      const flag = i === 0 ? `--${o.flag} ${arg}` : '';
      lines.push(`  ${pad(flag, 22)}${help}${i === 0 ? dflt : ''}  (${methods.join(', ')})`);
    });
  }
  lines.push('', 'prompt templates (the keys of a --templates file, with their slots):');
  for (const t of registry.templates()) {
    const users = registry.names().filter((m) => registry.get(m).templates.some((x) => x.name === t.name));
    lines.push(`  ${pad(t.name, 22)}${t.slots.map((x) => `{${x}}`).join(' ')}  (${users.join(', ')})`);
  }
  return lines.join('\n');
}

/** 'a, b or c'. */
function orList(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

/** Greedy wrap of `units` (words, or phrases that must not break) after `first`, further lines indented by `indent`. */
function wrap(first: string, units: readonly string[], indent: number, width: number): string {
  const lines = [first];
  for (const u of units) {
    const last = lines[lines.length - 1];
    const fresh = last.trim() === '' || last.endsWith(' ');
    if (!fresh && last.length + 1 + u.length > width) lines.push(' '.repeat(indent) + u);
    else lines[lines.length - 1] = fresh ? last + u : `${last} ${u}`;
  }
  return lines.join('\n');
}

const words = (text: string) => text.split(' ');

/** A help line with its default in the defaults column. */
function withDefault(line: string, dflt: string): string {
  return `${line.padEnd(87)}[${dflt}]`;
}

/** The families' task options that `command` takes, as option lines. */
function taskOptionsHelp(catalog: HelpCatalog, command: TaskOptionCommand): string {
  const lines: string[] = [];
  for (const o of catalog.taskOptions.all()) {
    if (!o.commands.includes(command)) continue;
    const [head, ...more] = o.help;
    lines.push(`  ${pad(`--${o.name} ${o.arg}`, 22)}${head}`, ...more.map((l) => `${' '.repeat(24)}${l}`));
  }
  return lines.join('\n');
}

/** The --lengths line on document counts, naming the tasks that take them. */
function docsLengthsHelp(catalog: HelpCatalog): string {
  const docs = catalog.tasks.all().filter((t) => t.acceptsDocCounts);
  const which = docs.length > 0 ? ` (${docs.map((t) => t.name).join(', ')})` : ' (no task here takes them)';
  const line = `${' '.repeat(24)}comma lists; docs:50..25600 = document counts${which}`;
  return `${pad(line, 88)}[task default]`;
}

/** The --data lines: the families' data layouts, read from the content; raw records (built into samples) last. */
function dataHelp(catalog: HelpCatalog): string {
  const all = catalog.dataFormats.all();
  const titles = [...all.filter((f) => !f.raw), ...all.filter((f) => f.raw)].map((f) => f.title);
  return wrap(
    `  ${pad('--data PATH', 22)}your`,
    words(`own data, format read from the content (README "Your own data"): ${orList(titles)}`),
    24,
    120,
  );
}

/** One line per export layout in three aligned columns: name, files written, the peer script that reads them (a
 *  layout's help is "files   (reader)"). */
function exportLayoutLines(layouts: readonly { name: string; help: string }[]): string {
  const rows = layouts.map((l) => {
    const m = /^(.*?)\s*(\([^()]*\))$/.exec(l.help);
    return { name: l.name, files: m ? m[1] : l.help, reader: m ? m[2] : '' };
  });
  const nameWidth = Math.max(...rows.map((r) => r.name.length)) + 2;
  const filesWidth = Math.max(...rows.map((r) => r.files.length)) + 3;
  return rows
    .map((r) => `  ${pad(r.name, nameWidth)}${r.reader ? pad(r.files, filesWidth) + r.reader : r.files}`.trimEnd())
    .join('\n');
}

/** The parts of the help texts that list the catalog's file layouts and task options. */
function catalogParts(catalog: HelpCatalog): Record<string, string> {
  const sources = catalog.scoreSources.all();
  const gen = catalog.generateFormats().map((n) => catalog.generateLayouts.get(n));
  const perLength = gen.filter((l) => l.perLength !== undefined).map((l) => l.name);
  const oneFile = gen.filter((l) => l.perLength === undefined).map((l) => l.name);
  const peers = gen.flatMap((l) => (l.peer === undefined ? [] : [l.peer]));
  const exp = catalog.exportFormats().map((n) => catalog.exportLayouts.get(n));
  const formatUnits = gen.map(
    (l, k) => `${k === gen.length - 1 && k > 0 ? 'or ' : ''}${l.name} (${l.rows})${k < gen.length - 2 ? ',' : ''}`,
  );
  return {
    generateOverview: wrap(
      `  bench generate <task> --out PATH         write`,
      words(
        `samples for other tools (--format ${perLength.join('|')}: one file per length under the folder PATH; ${oneFile.join('|')}: the file PATH)`,
      ),
      43,
      124,
    ),
    exportOverview: wrap(
      `  bench export <run-dir> --format F --out DIR   a`,
      words(
        `run's predictions in the layout ${orList(exp.map((l) => `${l.reader} (${l.name})`))} reads [--tasks LIST]`,
      ),
      43,
      124,
    ),
    generateIntro: wrap(
      'Writes',
      words(
        `a task's samples for other tools (${orList(peers)} scripts), without running a model: --format ${perLength.join(' and ')} write one file per length under the folder PATH, in the peer's own layout; ${oneFile.join(' and ')} writes the file PATH.`,
      ),
      0,
      120,
    ),
    generateFormat: [
      `  ${pad('--out PATH', 22)}output folder (${perLength.join(', ')}) or file (${oneFile.join(', ')}) (required)`,
      ...wrap(`  ${pad('--format F', 22)}`, formatUnits, 24, 120)
        .split('\n')
        .map((line, k, all) => (k === all.length - 1 ? withDefault(line, 'native') : line)),
    ].join('\n'),
    exportFormats: exp.map((l) => l.name).join('|'),
    exportLayouts: exportLayoutLines(exp),
    exportFormatList: orList(exp.map((l) => l.name)),
    scoreFormats: sources.map((s) => s.name).join('|'),
    metricExamples: catalog.metrics.names().slice(0, 2).join(', '),
    scoreIntro: wrap(
      'Rescores',
      words(
        `finished predictions without calling a model: a bench run directory, or ${orList(sources.map((s) => s.files))}; prints one row per group.`,
      ),
      0,
      120,
    ),
    scoreFormat: `${`  ${pad('--format F', 22)}${orList(sources.map((s) => s.name))}: the kind of file to read`.padEnd(87)} [detected from the first line]`,
    docsLengths: docsLengthsHelp(catalog),
    dataHelp: dataHelp(catalog),
    'taskOptions:run': taskOptionsHelp(catalog, 'run'),
    'taskOptions:generate': taskOptionsHelp(catalog, 'generate'),
  };
}

function serveHelp(): string {
  return SERVE_FLAGS.map(([flag, value, text]) => `  ${pad(`${flag} ${value}`, 22)}${text}`).join('\n');
}

function fill(text: string, catalog: HelpCatalog): string {
  const parts = catalogParts(catalog);
  return text.replace(/\{([A-Za-z:]+)\}/g, (whole, name: string) => parts[name] ?? whole);
}

/** The overview (no topic) or one command's help. The topic is a known command (parseCli refuses others). */
export function helpText(topic?: string, catalog: HelpCatalog = builtinCatalog()): string {
  if (topic === undefined || !(topic in TOPICS)) return fill(OVERVIEW, catalog);
  return fill(TOPICS[topic as Subcommand], catalog)
    .replace('{methods}', methodsHelp())
    .replace('{serve}', serveHelp());
}
