// `bench serve` entry: start the server, print its URL on one line, stop cleanly on SIGINT/SIGTERM.
import type { ChatMessage, Model } from '../../harness/types.js';
import { UserError, errorMessage } from '../../harness/errors.js';
import { READER_ID } from '../../reference/reader/index.js';
import { referenceReply } from '../../reference/builtin-reader.js';
import { modelFromReply } from '../../reference/serve/reply-model.js';
import { startServer, type RunningServer } from '../../reference/serve/server.js';
import type { ServeOptions } from '../../reference/serve/options.js';
import { createLiveSimulator, describeSimulation } from '../../reference/simulator/index.js';
import type { CommandIO, CommandOf } from '../../harness/config/commands.js';
import { createLocalModel } from '../../reference/local-model.js';
import { loadTokenizer } from '../../harness/tokenizer/index.js';
import { serveOptionsFromFlags } from '../../reference/serve/options.js';

export interface ServeCommandDeps {
  /** The local model to serve. The CLI should pass createLocalModel(tokenizer) for exact token counts; the default
   *  is the reference reader with approximate (whitespace-word) usage counts. */
  model?: Model;
  /** Prompt-token counter for the --max-context check before generating (e.g. from the run's tokenizer). */
  countPromptTokens?: (messages: ChatMessage[]) => number;
  /** Token counter and cutter for --reasoning replies (the tokenizer's). */
  countTokens?: (text: string) => number;
  cutTokens?: (text: string, tokens: number) => string;
  /** Where the URL line goes. Default: stdout. */
  print?: (line: string) => void;
  /** Resolves when the server should stop. Default: the first SIGINT or SIGTERM. */
  until?: Promise<void>;
  /** Called once listening (tests use it to reach the server). */
  onListening?: (server: RunningServer) => void;
}

function nextSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** Runs until a signal; returns the exit code (0). Listen failures become a UserError line. */
export async function serveCommand(opts: ServeOptions, deps: ServeCommandDeps = {}): Promise<number> {
  const print = deps.print ?? ((line: string) => process.stdout.write(line + '\n'));
  const until = deps.until ?? nextSignal();
  let server: RunningServer;
  const sim = opts.simulate
    ? createLiveSimulator(opts.simulate.params, { timeScale: opts.simulate.timeScale })
    : undefined;
  try {
    server = await startServer({
      model: deps.model ?? modelFromReply(referenceReply, { id: `local:${READER_ID}`, isReferenceReader: true }),
      modelName: opts.modelName,
      host: opts.host,
      port: opts.port,
      apiKey: opts.apiKey,
      maxContext: opts.maxContext,
      faults: opts.faults,
      countPromptTokens: deps.countPromptTokens,
      delay: sim?.delay,
      reasoning: opts.reasoning,
      countTokens: deps.countTokens,
      cutTokens: deps.cutTokens,
    });
  } catch (err) {
    sim?.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UserError(`port ${opts.port} on ${opts.host} is in use: pick another with --port (0 = any free port)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new UserError(`cannot listen on --host ${opts.host}: not an address of this machine`);
    if (code === 'EACCES')
      throw new UserError(`no permission to listen on ${opts.host}:${opts.port}: use a port above 1023`);
    throw new UserError(`cannot start the server: ${errorMessage(err)}`);
  }
  deps.onListening?.(server);
  print(
    `bench serve: model ${opts.modelName} at ${server.url}${opts.apiKeyEnv ? ` (key from $${opts.apiKeyEnv})` : ''}`,
  );
  if (sim) print(describeSimulation(sim));
  await until;
  sim?.close();
  await server.close();
  return 0;
}

/** `bench serve` from the command line: the embedded model with exact token counts in the chosen tokenizer. */
export async function serveCli(cmd: CommandOf<'serve'>, io: CommandIO): Promise<number> {
  const tokenizer = loadTokenizer(typeof cmd.options.tokenizer === 'string' ? cmd.options.tokenizer : 'qwen2.5');
  return serveCommand(serveOptionsFromFlags(cmd.options), {
    model: createLocalModel(tokenizer),
    countPromptTokens: (messages) => messages.reduce((n, m) => n + tokenizer.count(m.content), 0),
    countTokens: (text) => tokenizer.count(text),
    cutTokens: (text, n) => tokenizer.decode(tokenizer.encode(text).subarray(0, n)),
    print: io.out,
  });
}
