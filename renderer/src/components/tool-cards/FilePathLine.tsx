import type { ReactNode } from 'react';
import { useT } from '../../i18n/i18n';
import { CopyButton } from '../CopyButton';
import { MarkedText } from '../MarkedText';
import '../../i18n/messages/file-cards';

/** The file a call worked on, in full (hidden characters marked), with a button that copies its path. */
export function FilePathLine({ path, children }: { path: string; children?: ReactNode }) {
  const t = useT();
  if (path === '') return null;
  return (
    <p className="file-card-path">
      <span className="file-card-path-text">
        <MarkedText text={path} />
      </span>
      {children}
      <CopyButton text={path} label={t('file.copyPath', { path })} />
    </p>
  );
}

/** The path a file tool was given (`path`, or `file_path` as some models write it), or ''. */
export function inputPath(input: unknown): string {
  if (typeof input !== 'object' || input === null) return '';
  const record = input as Record<string, unknown>;
  const value = record.path ?? record.file_path;
  return typeof value === 'string' ? value : '';
}
