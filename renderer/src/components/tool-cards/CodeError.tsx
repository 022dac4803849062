import { useI18n } from '../../i18n/i18n';
import type { CodeErrorDetails } from './code-result';
import '../../i18n/messages/code-card';

/** Lines of the cell shown before and after the failing one. */
const CONTEXT_LINES = 2;

export interface ExcerptLine {
  /** null when the error names no line of this cell (the snippet alone is known). */
  number: number | null;
  text: string;
  failing: boolean;
}

/** The failing line of the code with a few lines around it, numbered from 1. */
export function failingExcerpt(code: string, line: number): ExcerptLine[] {
  const lines = code.split('\n');
  if (line < 1 || line > lines.length) return [];
  const from = Math.max(1, line - CONTEXT_LINES);
  const to = Math.min(lines.length, line + CONTEXT_LINES);
  return lines.slice(from - 1, to).map((text, i) => ({ number: from + i, text, failing: from + i === line }));
}

/** The lines to show under the error: around the failing line, else the snippet Python reported. */
function errorExcerpt(details: CodeErrorDetails | null, code: string): ExcerptLine[] {
  const around = details?.line != null ? failingExcerpt(code, details.line) : [];
  if (around.length > 0 || !details?.snippet) return around;
  return [{ number: details.line, text: details.snippet, failing: true }];
}

/**
 * Whether the kernel's one-line summary says more than the type, message and line shown: where the error
 * was raised when that was outside this cell (a function of an earlier cell, a module).
 */
function summaryAddsWhere(summary: string, details: CodeErrorDetails): boolean {
  if (summary.includes(' (raised ')) return true;
  return details.line === null && summary !== `${details.type}: ${details.message}`;
}

/**
 * The structured error of a failed cell, shown before everything else: what was raised, the line of the
 * code it points at (marked, with the carets under the failing part), and the traceback folded away.
 */
export function CodeError({
  details,
  summary,
  code,
}: {
  details: CodeErrorDetails | null;
  summary: string | null;
  code: string;
}) {
  const { t, formatNumber } = useI18n();
  const excerpt = errorExcerpt(details, code);
  const width = String(excerpt.at(-1)?.number ?? 0).length;
  const pad = (n: number | string) => String(n).padStart(width, ' ');
  return (
    <div className="code-card-error">
      <p className="code-card-error-title">
        {details ? (
          <>
            <strong className="code-card-error-type">{details.type}</strong>
            {details.message !== '' && <>: {details.message}</>}
          </>
        ) : (
          summary
        )}
      </p>
      {details && summary && summaryAddsWhere(summary, details) && (
        <p className="tool-card-note">{summary}</p>
      )}
      {details?.line != null && (
        <p className="code-card-error-where">{t('tool.code.line', { line: formatNumber(details.line) })}</p>
      )}
      {excerpt.length > 0 && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        <pre className="code-card-excerpt" tabIndex={0}>
          {excerpt.map((l) => (
            <span
              key={l.number}
              className={l.failing ? 'code-card-line code-card-line--failing' : 'code-card-line'}
            >
              <span className="code-card-line-number" aria-hidden="true">
                {`${l.failing ? '→' : ' '} ${pad(l.number ?? '')} `}
              </span>
              {`${l.text}\n`}
              {l.failing && details?.pointer && (
                <span className="code-card-pointer" aria-hidden="true">
                  {`  ${pad('')} ${details.pointer}\n`}
                </span>
              )}
            </span>
          ))}
        </pre>
      )}
      {details?.traceback && (
        <details className="code-card-traceback">
          <summary>{t('tool.code.traceback')}</summary>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
          <pre className="tool-card-pre" tabIndex={0}>
            {details.traceback}
          </pre>
        </details>
      )}
    </div>
  );
}
