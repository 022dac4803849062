import type { CallbackOutcome } from '../application/mcp/mcp-oauth-service';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page the browser shows after an MCP login: what happened, in words; no script, nothing loaded. */
export function callbackPage(outcome: CallbackOutcome): string {
  const title = outcome.ok ? 'Logged in' : 'Login not finished';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Cairn — ${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2328}h1{font-size:1.25rem}</style>
</head><body><h1>${title}</h1><p>${escapeHtml(outcome.message)}</p></body></html>
`;
}
