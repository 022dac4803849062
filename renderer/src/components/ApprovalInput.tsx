import { memo, useId, useMemo } from 'react';
import { type Translate, useT } from '../i18n/i18n';
import { CodeView } from './CodeView';
import { languageForPath } from './code-language';
import { DiffView } from './DiffView';
import { execCommandLine, inputField, inputText, prettyJson } from './tool-summary';

type Part =
  | { kind: 'code'; label: string; code: string; language: string | null }
  | { kind: 'diff'; label: string; oldText: string; newText: string }
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
        { kind: 'diff', label: t('question.approval.changes'), oldText, newText },
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

function PartView({ part }: { part: Part }) {
  const labelId = useId();
  if (part.kind === 'note') return <p className="approval-note">{part.text}</p>;
  return (
    <section className="approval-part" aria-labelledby={labelId}>
      <h4 id={labelId} className="approval-label">
        {part.label}
      </h4>
      {part.kind === 'path' ? (
        <code className="approval-path">{part.path}</code>
      ) : part.kind === 'diff' ? (
        <DiffView oldText={part.oldText} newText={part.newText} />
      ) : (
        <CodeView code={part.code} language={part.language} />
      )}
    </section>
  );
}

/**
 * The whole input of a tool call waiting for approval, as the tool will run it: a command, a file's new
 * content, an edit's diff, code, or JSON. Nothing is cut; long parts scroll inside their own box.
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
