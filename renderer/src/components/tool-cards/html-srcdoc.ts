/**
 * The policy put first in every HTML output's frame: it loads nothing (no script, no fetch, no image from
 * anywhere but data: URLs, no font, no form target), so a page a cell produced can show but not call out.
 * The frame itself is sandboxed without allow-scripts, so no script runs in it at all either way.
 */
export const HTML_OUTPUT_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";

/**
 * A cell's HTML output as a frame's srcdoc: the policy first, before anything of the output can be
 * parsed (a meta CSP applies only from where it appears), then the output as it is.
 */
export function htmlOutputSrcdoc(html: string): string {
  return `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${HTML_OUTPUT_CSP}">${html}`;
}
