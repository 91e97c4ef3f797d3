// `--protocol ruler`: RULER's own run mode as a preset of bench run's flags (NVIDIA/RULER scripts/run.sh,
// config_tasks.sh, pred/call_api.py): the `native` method (RULER's prompt: model template, task template with the
// context, answer prefix), the tasks' RULER flavour (RULER's scoring), greedy decoding (temperature 0, top_p 1),
// each task's tokens_to_generate (the samples' maxNewTokens), 500 samples at 4K..128K. Flags given win, except those
// that would make it another protocol, which are refused.
import { UserError } from '../errors.js';

/** The flags --protocol ruler sets when they are not given. */
export const RULER_RUN_DEFAULTS: Readonly<Record<string, string>> = {
  method: 'native',
  samples: '500',
  lengths: '4k..128k',
  temperature: '0',
  'top-p': '1',
  flavour: 'ruler',
};

/** The run's flag values under --protocol ruler: RULER's defaults filled in, the route chosen by the placement. */
export function rulerRunFlags(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const [flag, value] of Object.entries(RULER_RUN_DEFAULTS)) {
    // With --data the data's rows and lengths are the grid (RULER's prepare.py already chose them).
    if (out.data !== undefined && (flag === 'samples' || flag === 'lengths')) continue;
    out[flag] ??= value;
  }
  if (out.flavour !== 'ruler')
    throw new UserError(
      `--protocol ruler scores RULER's way (--flavour ruler); drop --flavour ${String(out.flavour)}, or drop --protocol`,
    );
  const placement = (out['answer-prefix'] as string | undefined) ?? 'completion';
  if (placement === 'completion') {
    if (out.api === 'chat')
      throw new UserError(
        "--protocol ruler with --answer-prefix completion sends one raw prompt to /completions, as RULER's own server path does: drop --api chat, or put the prefix in the chat with --answer-prefix user or assistant-prefill",
      );
    out.api ??= 'completions';
  }
  return out;
}

/** A template/placement pair that cannot be sent: `server` needs the chat API, a raw completion has no chat. */
export function checkNativePlacement(chatTemplate: string, placement: string, api: string | undefined): void {
  if (chatTemplate === 'server' && placement === 'completion')
    throw new UserError(
      "--chat-template server lets the endpoint's own chat template apply, which only the chat API does: use --answer-prefix user or assistant-prefill, or a RULER template name",
    );
  if (placement !== 'completion' && api === 'completions')
    throw new UserError(
      `--answer-prefix ${placement} places the prefix in a chat, but --api completions sends raw text: use --answer-prefix completion, or drop --api completions`,
    );
}

/** Under --protocol ruler every task must be in RULER's flavour (its prompt and scoring); one line names the rest. */
export function checkRulerTasks(tasks: readonly { name: string; flavour?: string }[]): void {
  const other = tasks.filter((t) => t.flavour !== 'ruler').map((t) => t.name);
  if (other.length > 0)
    throw new UserError(
      `--protocol ruler runs RULER's tasks in RULER's flavour; ${other.join(', ')} ${other.length > 1 ? 'have' : 'has'} none: run niah_*, vt, cwe, fwe, qa_1, qa_2 (or RULER's own files with --data)`,
    );
}
