// Compares our own prompt-token count (request.promptTokensHint) with the count the server reports, so a run whose
// tokenizer differs from the served model's (lengths on the grid not what the model sees) is flagged, not silent.
import type { Model, ModelRequest, ModelResponse } from '../types.js';

export interface DriftOptions {
  /** Relative difference allowed beyond the slack. Default 0.05. */
  tolerance?: number;
  /** Absolute tokens allowed for the chat template the server wraps around the prompt. Default 64. */
  slack?: number;
}

export interface DriftStats {
  /** Fresh (uncached) responses that had both counts. */
  compared: number;
  /** Of those, how many differed by more than slack + tolerance × our count. */
  flagged: number;
  /** Largest |server − ours| / ours seen over all compared calls. */
  maxRelative: number;
}

export type DriftCheckedModel = Model & { drift(): DriftStats };

/** Wraps a model; the first flagged call prints one warning line, later ones are only counted. */
export function withDriftCheck(model: Model, warn: (line: string) => void, opts: DriftOptions = {}): DriftCheckedModel {
  const tolerance = opts.tolerance ?? 0.05;
  const slack = opts.slack ?? 64;
  const stats: DriftStats = { compared: 0, flagged: 0, maxRelative: 0 };

  const check = (request: ModelRequest, res: ModelResponse) => {
    const ours = request.promptTokensHint;
    const theirs = res.usage.promptTokens;
    // Cached responses were compared when first fetched; servers that report no usage send 0.
    if (ours === undefined || res.cached || !(theirs > 0)) return;
    stats.compared++;
    const diff = theirs - ours;
    const relative = Math.abs(diff) / Math.max(1, ours);
    stats.maxRelative = Math.max(stats.maxRelative, relative);
    if (Math.abs(diff) <= slack + tolerance * ours) return;
    stats.flagged++;
    if (stats.flagged === 1) {
      const sign = diff > 0 ? '+' : '−';
      warn(
        `warning: token count drift on ${model.id}: the server counted ${theirs} prompt tokens where ours was ${ours} ` +
          `(${sign}${(relative * 100).toFixed(1)}%, allowed ${slack} + ${(tolerance * 100).toFixed(0)}%); lengths may not be what the model sees ` +
          `(does --tokenizer match the served model?); further mismatches are only counted`,
      );
    }
  };

  return {
    id: model.id,
    isReferenceReader: model.isReferenceReader,
    drift: () => ({ ...stats }),
    close: model.close ? () => model.close!() : undefined,
    async generate(request, signal) {
      const res = await model.generate(request, signal);
      check(request, res);
      return res;
    },
  };
}
