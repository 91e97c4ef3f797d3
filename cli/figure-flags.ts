// `--format png,svg,pdf`, `--size single,double`, `--no-title` and `--dpi N`: how `bench report` and `bench compare` write their
// charts (reports/charts/index.ts).
import { UserError } from '../harness/errors.js';
import {
  DEFAULT_DPI,
  DEFAULT_FIGURES,
  DPI_RANGE,
  type ChartFormat,
  type ChartSizeName,
  type FigureOptions,
} from '../harness/report/facet.js';
import type { OptionSpec } from './parse.js';

export const FIGURE_OPTIONS: Record<string, OptionSpec> = {
  format: { type: 'string' },
  size: { type: 'string' },
  'no-title': { type: 'boolean' },
  dpi: { type: 'string' },
};

const FORMATS: readonly ChartFormat[] = ['png', 'svg', 'pdf'];
const SIZES: readonly ChartSizeName[] = ['single', 'double'];

function list<T extends string>(raw: string, flag: string, allowed: readonly T[], expected: string): T[] {
  const items = raw.split(',').map((s) => s.trim().toLowerCase());
  for (const item of items) {
    if (item === '') throw new UserError(`bad ${flag} '${raw}': empty item; expected ${expected}`);
    if (!(allowed as readonly string[]).includes(item))
      throw new UserError(`bad ${flag} '${raw}': '${item}' is not one of ${allowed.join(', ')}; expected ${expected}`);
  }
  return [...new Set(items)] as T[];
}

/** `--dpi N`: a whole number of PNG pixels per inch within DPI_RANGE. */
export function parseDpi(raw: string): number {
  const text = raw.trim();
  const expected = `a whole number of pixels per inch from ${DPI_RANGE.min} to ${DPI_RANGE.max} (default ${DEFAULT_DPI})`;
  if (!/^\d+$/.test(text)) throw new UserError(`bad --dpi '${raw}': expected ${expected}`);
  const n = Number(text);
  if (n < DPI_RANGE.min || n > DPI_RANGE.max) throw new UserError(`bad --dpi '${raw}': expected ${expected}`);
  return n;
}

/** The charts' formats, sizes, title flag and PNG resolution from parsed options; undefined when none was given. */
export function parseFigureFlags(values: Record<string, unknown>): FigureOptions | undefined {
  const format = values.format as string | undefined;
  const size = values.size as string | undefined;
  const noTitle = Boolean(values['no-title']);
  const dpi = values.dpi as string | undefined;
  if (format === undefined && size === undefined && !noTitle && dpi === undefined) return undefined;
  return {
    formats:
      format === undefined
        ? DEFAULT_FIGURES.formats
        : list(format, '--format', FORMATS, 'chart formats, comma-separated, e.g. --format png,svg,pdf'),
    sizes:
      size === undefined
        ? DEFAULT_FIGURES.sizes
        : list(size, '--size', SIZES, 'single (3.25 in) and/or double (6.75 in), e.g. --size single'),
    title: !noTitle,
    ...(dpi === undefined ? {} : { dpi: parseDpi(dpi) }),
  };
}
