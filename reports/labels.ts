// Short labels for legends and titles.
import { REFERENCE_READER_LABEL, isReferenceReaderId } from './format.js';

/** A short model name for legends: the part after '#' of an endpoint id; the reference reader spelled out. */
export function shortModel(modelId: string, isReferenceReader = isReferenceReaderId(modelId)): string {
  if (isReferenceReader) return REFERENCE_READER_LABEL;
  const hash = modelId.lastIndexOf('#');
  const name = hash >= 0 ? modelId.slice(hash + 1) : modelId;
  return name.length > 40 ? `${name.slice(0, 37)}…` : name;
}

/** Display form of a length label: "32k" → "32K", "docs:50" stays. */
export function displayLength(label: string): string {
  return /^[\d.]+[km]$/i.test(label) ? label.toUpperCase() : label;
}

/** File-name-safe slug. */
export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'x'
  );
}
