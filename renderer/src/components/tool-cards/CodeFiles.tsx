import { useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import { formatBytes } from '../../i18n/file-size';
import { useI18n, useT } from '../../i18n/i18n';
import { downloadBlob } from '../download-blob';
import { type CodeFile, downloadName, fileView } from './code-result';
import { htmlOutputSrcdoc } from './html-srcdoc';
import { type ArtifactState, useArtifact } from './use-artifact';
import { errorMessage } from './use-call-result';
import '../../i18n/messages/code-card';

/** Raster images shown from memory through an object URL, typed by us (never by what the server said). */
const RASTER = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * An image's URL: a raster image as an object URL of the type we allow; an SVG as a `data:` URL. An SVG
 * object URL would be same-origin with the app, so opening it as a page ("Open image in new tab") would run
 * its scripts there; a `data:` document has an opaque origin of its own.
 */
export async function imageUrl(blob: Blob, mime: string): Promise<string> {
  const type = mime.toLowerCase();
  if (RASTER.has(type)) return URL.createObjectURL(new Blob([blob], { type }));
  if (type !== 'image/svg+xml') throw new Error(`${mime} is not an image shown inline`);
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}
const releaseUrl = (url: string) => {
  if (url.startsWith('blob:')) URL.revokeObjectURL(url);
};
const toText = (blob: Blob) => blob.text();

/**
 * An image the code made, from memory. An SVG goes through <img> too, never into the page's DOM: as an
 * image it runs no script and loads nothing.
 */
function CodeImage({ client, file }: { client: CairnClient; file: CodeFile }) {
  const t = useT();
  const image = useArtifact(client, file.id ?? '', (blob) => imageUrl(blob, file.mime), releaseUrl);
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
  const { t, locale } = useI18n();
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
        {file.mime} · {formatBytes(locale, file.bytes)}
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
