import { UserError } from '../errors.js';
import type { Command } from './parse.js';

/** Commands other than run/tasks/help, each loaded lazily. */
export async function runOtherCommand(cmd: Command, out: (l: string) => void, err: (l: string) => void): Promise<number> {
  switch (cmd.command) {
    case 'serve': {
      const { serveCommand } = await import('../commands/serve.js');
      const { serveOptionsFromFlags } = await import('../../reference/serve/index.js');
      const { loadTokenizer } = await import('../tokenizer/index.js');
      const { createLocalModel } = await import('../models/local-model.js');
      const tokenizer = loadTokenizer(typeof cmd.options.tokenizer === 'string' ? cmd.options.tokenizer : 'qwen2.5');
      return serveCommand(serveOptionsFromFlags(cmd.options), {
        model: createLocalModel(tokenizer),
        countPromptTokens: (messages) => messages.reduce((n, m) => n + tokenizer.count(m.content), 0),
        print: out,
      });
    }
    case 'score': {
      const { scoreTarget, formatScoreTable } = await import('../commands/score.js');
      out(formatScoreTable(await scoreTarget(cmd.target, { format: cmd.format }), cmd.json));
      return 0;
    }
    case 'report': {
      const { reportCommand } = await import('../commands/report.js');
      const result = await reportCommand({ runDirs: cmd.runDirs, out: cmd.out, paper: cmd.paper, onWarning: (m) => err(`warning: ${m}`) });
      for (const f of result.files) out(f);
      return 0;
    }
    case 'gate': {
      const { gateCommand } = await import('../commands/gate.js');
      return gateCommand({ runDir: cmd.runDir, baseline: cmd.baseline, maxDrop: cmd.maxDrop, maxErrors: cmd.maxErrors, z: cmd.z, exact: cmd.exact, junit: cmd.junit });
    }
    case 'baseline': {
      const { baselineCommand } = await import('../commands/gate.js');
      const r = await baselineCommand({ runDir: cmd.runDir, out: cmd.out });
      out(`wrote ${r.entries} baseline entries to ${r.file}`);
      return 0;
    }
    case 'generate': {
      const { generateCommand } = await import('../commands/generate.js');
      const { getTask } = await import('../tasks.js');
      const { loadTokenizer } = await import('../tokenizer/index.js');
      const { parseLengths } = await import('../config/lengths.js');
      const { datasetCacheDir } = await import('../cache/cache-root.js');
      const task = getTask(cmd.task);
      const lengths = cmd.lengths ?? parseLengths(task.defaultLengths);
      const result = await generateCommand({
        task, lengths, samples: cmd.samples ?? task.defaultSamples, seed: cmd.seed, tokenizer: loadTokenizer(cmd.tokenizer),
        format: cmd.format, out: cmd.out, cacheDir: datasetCacheDir(), options: cmd.options,
      });
      for (const l of result.lengths) out(`${l.label}: ${l.rows} samples (${l.cacheHit ? 'from cache' : `${l.generated} generated`})`);
      out(`wrote ${result.rows} rows to ${result.out}`);
      return 0;
    }
    case 'merge': {
      const { mergeCommand } = await import('../commands/merge.js');
      const r = await mergeCommand({ shardDirs: cmd.shardDirs, out: cmd.out });
      const { loadRecords, summarize, writeSummary, formatSummaryTable } = await import('../../reports/summary.js');
      const rows = summarize(await loadRecords(cmd.out));
      writeSummary(cmd.out, rows);
      out(formatSummaryTable(rows));
      out(`merged ${r.samples} samples into ${cmd.out}`);
      return 0;
    }
    default:
      throw new UserError(`bench ${cmd.command} is not available`);
  }
}
