import { memo, useId, useMemo, useRef } from 'react';
import { type Translate, useT } from '../i18n/i18n';
import { CodeView } from './CodeView';
import { languageForPath } from './code-language';
import { DiffView } from './DiffView';
import { type DiffLine, diffLines } from './line-diff';
import { MarkedText } from './MarkedText';
import { execCommandLine, inputField, inputText, prettyJson } from './tool-summary';
import { useMoreBelow } from './use-more-below';

type Part =
  | { kind: 'code'; label: string; code: string; language: string | null }
  | { kind: 'diff'; label: string; lines: DiffLine[] }
  | { kind: 'path'; label: string; path: string }
  | { kind: 'note'; text: string };

interface Shown {
  parts: Part[];
  /** The input's fields these parts show; any other field is shown as JSON below them. */
  fields: string[];
}

/** What a known tool's approval shows, or null when its input is not the shape the tool takes. */
function toolParts(name: string, input: unknown, t: Translate): Shown | null {
  switch (name) {
    case 'Bash': {
      const command = inputText(input, 'command');
      if (command === null) return null;
      return {
        parts: [{ kind: 'code', label: t('question.approval.command'), code: command, language: 'bash' }],
        fields: ['command'],
      };
    }
    case 'Exec': {
      const line = execCommandLine(input);
      if (line === null || !Array.isArray(inputField(input, 'args'))) return null;
      return {
        parts: [{ kind: 'code', label: t('question.approval.commandLine'), code: line, language: 'bash' }],
        fields: ['program', 'args'],
      };
    }
    case 'Write': {
      const path = inputText(input, 'path');
      const content = inputText(input, 'content');
      if (path === null || content === null) return null;
      const label = t('question.approval.content');
      return {
        parts: [
          { kind: 'path', label: t('question.approval.file'), path },
          content === ''
            ? { kind: 'note', text: t('question.approval.contentEmpty') }
            : { kind: 'code', label, code: content, language: languageForPath(path) },
        ],
        fields: ['path', 'content'],
      };
    }
    case 'Edit': {
      const path = inputText(input, 'path');
      const oldText = inputText(input, 'old_string');
      const newText = inputText(input, 'new_string');
      if (path === null || oldText === null || newText === null) return null;
      const replaceAll = inputField(input, 'replace_all');
      const parts: Part[] = [
        { kind: 'path', label: t('question.approval.file'), path },
        { kind: 'diff', label: t('question.approval.changes'), lines: diffLines(oldText, newText) },
      ];
      if (replaceAll === true) parts.push({ kind: 'note', text: t('question.approval.replaceAll') });
      const fields = ['path', 'old_string', 'new_string'];
      if (typeof replaceAll === 'boolean') fields.push('replace_all');
      return { parts, fields };
    }
    case 'execute_code': {
      const code = inputText(input, 'code');
      if (code === null) return null;
      return {
        parts: [{ kind: 'code', label: t('question.approval.code'), code, language: 'python' }],
        fields: ['code'],
      };
    }
  }
  return null;
}

/** Every part of the input: the tool's own view, then whatever fields it does not show, as JSON. */
function approvalParts(name: string, input: unknown, t: Translate): Part[] {
  const shown = toolParts(name, input, t);
  if (shown === null) {
    if (input === undefined) return [];
    return [{ kind: 'code', label: t('tool.arguments'), code: prettyJson(input), language: 'json' }];
  }
  const rest = Object.fromEntries(
    Object.entries(input as Record<string, unknown>).filter(([key]) => !shown.fields.includes(key)),
  );
  if (Object.keys(rest).length === 0) return shown.parts;
  const label = t('question.approval.otherArguments');
  return [...shown.parts, { kind: 'code', label, code: prettyJson(rest), language: 'json' }];
}

type BoxPart = Extract<Part, { kind: 'code' | 'diff' }>;

/** How many lines a part's box holds. */
function lineCount(part: BoxPart): number {
  return part.kind === 'diff' ? part.lines.length : part.code.replace(/\n$/, '').split('\n').length;
}

/** A code or diff part: a capped box, and below it a note while there is more under its bottom edge. */
function BoxPartView({ part }: { part: BoxPart }) {
  const t = useT();
  const labelId = useId();
  const section = useRef<HTMLElement>(null);
  const more = useMoreBelow(section, part);
  const lines = lineCount(part);
  return (
    <section ref={section} className="approval-part" aria-labelledby={labelId}>
      <h4 id={labelId} className="approval-label">
        {part.label}
      </h4>
      {part.kind === 'diff' ? (
        <DiffView lines={part.lines} />
      ) : (
        <CodeView code={part.code} language={part.language} />
      )}
      {/* The box is capped in height: without this, its end could pass unseen before Allow. */}
      {more && (
        <p className="approval-more">
          {lines > 1 ? t('question.approval.moreLines', { lines }) : t('question.approval.more')}
        </p>
      )}
    </section>
  );
}

function PartView({ part }: { part: Part }) {
  const labelId = useId();
  if (part.kind === 'note') return <p className="approval-note">{part.text}</p>;
  if (part.kind !== 'path') return <BoxPartView part={part} />;
  return (
    <section className="approval-part" aria-labelledby={labelId}>
      <h4 id={labelId} className="approval-label">
        {part.label}
      </h4>
      <code className="approval-path">
        <MarkedText text={part.path} />
      </code>
    </section>
  );
}

/**
 * The whole input of a tool call waiting for approval, as the tool will run it: a command, a file's new
 * content, an edit's diff, code, or JSON. Nothing is cut; long parts scroll inside their own box.
 * Invisible and direction-changing characters show as markers, so the text reads as the tool gets it.
 */
export const ApprovalInput = memo(function ApprovalInput({ name, input }: { name: string; input: unknown }) {
  const t = useT();
  const parts = useMemo(() => approvalParts(name, input, t), [name, input, t]);
  if (parts.length === 0) return null;
  return (
    <div className="approval-input">
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one input, always in the same order
        <PartView key={i} part={part} />
      ))}
    </div>
  );
});
