import { methods as registry } from '../methods/index.js';

const BASE = `bench — long-context benchmark harness (MemAgent vs long-context baselines)

Usage:
  bench run <task[,task...]> [options]     run a benchmark and print per-length scores
  bench plan <task> [run options] [--simulate PRESET[,k=v]]   predict calls, tokens, wall time and GPU-hours of a run
  bench plan --calibrate <run-dir> [--simulate PRESET] [--time-scale X]   fit the server's timing to a finished run
  bench tasks                              list tasks
  bench generate <task> --out FILE.jsonl   write samples for other tools (--format ruler|memagent|native)
  bench score <run-dir|preds.jsonl|dir>    rescore runs or other tools' predictions [--format memagent|ruler|longbench] [--json]
  bench report <run-dir>... [--out DIR]    CSV/JSON/markdown summary, report.html and PNG charts [--paper]
  bench gate <run-dir> --baseline FILE     CI regression gate (exit 0 pass, 1 regression, 2 usage/harness error)
  bench baseline <run-dir> --out FILE      store a run's scores as a gate baseline
  bench merge <shard-dir>... --out DIR     join the shards of a run (--shard i/n)
  bench serve [options]                    the embedded model as an OpenAI-compatible server on 127.0.0.1

bench serve options: --host --port --model-name --api-key-env --max-context --latency-ms --latency-per-token-ms
  --fail-5xx --fail-429 --retry-after --fail-reset --fail-malformed --fail-hang --seed (fault rates: 0.1 or 10%)
  --simulate PRESET[,k=v] --time-scale X   time like a continuous-batching GPU server (docs/SIMULATION.md)

bench plan options (besides every bench run option; nothing is run, no model is called):
  --simulate PRESET[,k=v]  hardware to predict on (the bench serve presets)               [qwen2.5-7b-h100]
  --output-tokens KIND=MEDIAN[:SIGMA],...  assumed completion lengths   [update=400:0.5,final=60:0.6,answer=60:0.6]
  --calibrate RUN_DIR   fit prefill-tps, step-ms, step-per-seq-ms and output lengths to RUN_DIR's calls.jsonl
  --time-scale X        with --calibrate: the run's server was bench serve --time-scale X
  --json                print the plan or the fit as JSON

bench run options:
  --lengths SPEC        k = 1024, m = 1024²; a..b doubles from a and ends with b (32k..3.5m = 32k,64k,...,2m,3.5m);
                        comma lists; docs:50..25600 = MemAgent's RULER-HQA document counts   [task default]
  --samples N           samples per length                                              [task default, 128]
  --seed S              data seed                                                       [42]
  --out DIR             run directory; rerunning the same command resumes it           [runs/<task>__<method>__<model>__seed<S>]
  --model local|URL     'local' = embedded reference reader (not an LLM); or an OpenAI-compatible base URL  [local]
  --endpoint URL        another endpoint (repeatable); calls go to the least busy one
  --model-name NAME     model name the endpoint serves (required with a URL)
  --api-key-env VAR     name of the environment variable holding the API key (the key is never written anywhere)
  --concurrency N       samples in flight                                               [16; 256 with --server-batch]
  --server-batch N      the server's batch (max_num_seqs × replicas): at most N calls out, longest remaining
                        chain first, so many samples can be in flight without FIFO queueing at the server
  --requests-per-endpoint N  requests in flight per endpoint                            [64]
  --tokenizer NAME      qwen2.5, o200k_base, cl100k_base, gpt-4o                        [qwen2.5]
  --placement P         ruler-hqa probe: 0-100, 20-80, 40-60, 0-20, 80-100, random     [random]
  --data PATH           your own data (HotpotQA dev file; LongBench data directory)
  --shard i/n           run only samples with index mod n = i (merge shards with bench merge); 'auto' or 'auto/n'
                        takes i (and n) from a Kubernetes Indexed Job or Slurm array (README: Scale-out)
  --workers N           worker threads for the embedded model                           [CPU cores]
  --trial N             trial index (part of the response-cache key)                   [0]
  --request-timeout S   base per-request timeout in seconds; grows with prompt and output size   [60]
  --retry-base-ms N     first backoff ceiling (exponential, full jitter; Retry-After is honoured)  [500]
  --retry-errors        on resume, run again the samples that ended as errors (the new line supersedes the old)
  --no-retry-429        do not wait out rate limits (daily quotas): a 429 ends the sample as an error
  --no-cache            do not reuse cached responses (endpoints; identical calls are free otherwise)
  --cache-debug         print each call's cache key inputs (hashes and parameters, never the prompt)
  --dry-run             count samples, calls and tokens per length (cost estimate); calls no model
  --store-prompts       keep every distinct prompt once under prompts/ (calls.jsonl refers to it by hash)
  --no-progress         no progress bar
  --method LIST         methods run side by side over the same samples (comma-separated) [memagent]
{methods}

Exit codes: 0 ok, 1 harness error, 2 usage or input error, 130 interrupted (rerun to resume).
`;

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
    lines.push(`  ${pad(`--${o.flag} ${arg}`, 22)}${o.help}${dflt}  (${registry.usersOf(o.flag).join(', ')})`);
  }
  return lines.join('\n');
}

export function helpText(_topic?: string): string {
  return BASE.replace('{methods}', methodsHelp());
}
