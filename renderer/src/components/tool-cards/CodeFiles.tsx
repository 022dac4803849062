import { useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import { useI18n, useT } from '../../i18n/i18n';
import { downloadBlob } from '../download-blob';
import { type CodeFile, downloadName, fileView } from './code-result';
import { htmlOutputSrcdoc } from './html-srcdoc';
import { type ArtifactState, useArtifact } from './use-artifact';
import { errorMessage } from './use-call-result';

const toObjectUrl = (blob: Blob) => URL.createObjectURL(blob);
const revokeObjectUrl = (url: string) => URL.revokeObjectURL(url);
const toText = (blob: Blob) => blob.text();

/**
 * An image the code made, from memory through an object URL. An SVG goes through <img> too, never into the
 * page's DOM: as an image it runs no script and loads nothing.
 */
function CodeImage({ client, file }: { client: CairnClient; file: CodeFile }) {
  const t = useT();
  const image = useArtifact(client, file.id ?? '', toObjectUrl, revokeObjectUrl);
  if (image.state !== 'loaded') return <NotYet artifact={image} failed="tool.code.imageFailed" />;
  return (
    <img className="code-card-image" src={image.value} alt={t('tool.code.image', { type: file.mime })} />
  );
}

/** An output still loading (a quiet placeholder), or what went wrong loading it. */
function NotYet({ artifact, failed }: { artifact: ArtifactState<unknown>; failed: string }) {
  const t = useT();
  if (artifact.state !== 'error') return <div className="code-card-placeholder" aria-busy="true" />;
  return (
    <p className="tool-card-error" role="alert">
      {t(failed, { message: artifact.message })}
    </p>
  );
}

/**
 * HTML the code displayed, in a frame sandboxed with no permission at all: no script runs in it, it has an
 * origin of its own (so it cannot reach the page, its storage or the token), and its policy lets it load
 * nothing.
 */
function CodeHtml({ client, file }: { client: CairnClient; file: CodeFile }) {
  const t = useT();
  const html = useArtifact(client, file.id ?? '', toText);
  if (html.state !== 'loaded') return <NotYet artifact={html} failed="tool.code.htmlFailed" />;
  return (
    <iframe
      className="code-card-html"
      title={t('tool.code.html')}
      sandbox=""
      referrerPolicy="no-referrer"
      srcDoc={htmlOutputSrcdoc(html.value)}
    />
  );
}

/** Any other file (PDF, JSON, LaTeX, Markdown): its name and size, and a download fetched when asked. */
function CodeDownload({ client, file }: { client: CairnClient; file: CodeFile }) {
  const { t, formatNumber } = useI18n();
  const [error, setError] = useState<string | null>(null);
  const name = downloadName(file);
  const id = file.id;
  const download = () => {
    if (id === null) return;
    setError(null);
    client.artifactBlob(id).then(
      (blob) => downloadBlob(blob, name),
      (e: unknown) => setError(errorMessage(e)),
    );
  };
  return (
    <li className="code-card-file">
      <span className="code-card-file-name">{name}</span>
      <span className="code-card-file-facts">
        {file.mime} · {formatNumber(file.bytes)} B
      </span>
      {id === null ? (
        <span className="tool-card-note">{t('tool.code.serverOnly', { path: file.path })}</span>
      ) : (
        <button
          type="button"
          className="conv-button"
          aria-label={t('tool.code.downloadLabel', { name })}
          onClick={download}
        >
          {t('tool.code.download')}
        </button>
      )}
      {error !== null && (
        <p className="tool-card-error" role="alert">
          {t('tool.code.downloadFailed', { name, message: error })}
        </p>
      )}
    </li>
  );
}

/** The rich outputs of a cell: images and HTML inline, in the order the code made them; other files listed. */
export function CodeFiles({ client, files }: { client: CairnClient; files: CodeFile[] }) {
  const shown = files.filter((f) => fileView(f) !== 'download');
  const listed = files.filter((f) => fileView(f) === 'download');
  return (
    <>
      {shown.map((file) =>
        fileView(file) === 'image' ? (
          <CodeImage key={file.path} client={client} file={file} />
        ) : (
          <CodeHtml key={file.path} client={client} file={file} />
        ),
      )}
      {listed.length > 0 && (
        <ul className="code-card-files">
          {listed.map((file) => (
            <CodeDownload key={file.path} client={client} file={file} />
          ))}
        </ul>
      )}
    </>
  );
}
