// HTML escaping for report.html: every string that came from a run (model output, questions, ids) goes through here.

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: unknown): string {
  return String(text ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}
