import { useEffect, useState } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { KernelArtifact } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import '../../i18n/messages/kernels';

/**
 * An image a kernel saved: fetched with the token in a header and shown from memory through an object
 * URL (never a URL that carries the token), released when it leaves the screen.
 */
export function KernelImage({ client, artifact }: { client: CairnClient; artifact: KernelArtifact }) {
  const t = useT();
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    let created: string | null = null;
    client.artifactBlob(artifact.id).then(
      (blob) => {
        if (cancelled) return;
        created = URL.createObjectURL(blob);
        setUrl(created);
      },
      (e: unknown) => {
        if (!cancelled) setError(e instanceof Error ? e.message : String(e));
      },
    );
    return () => {
      cancelled = true;
      if (created) URL.revokeObjectURL(created);
    };
  }, [client, artifact.id]);
  if (error) {
    return (
      <p className="error-text" role="alert">
        {t('kernel.imageFailed', { message: error })}
      </p>
    );
  }
  if (!url) return <div className="kernel-image-placeholder" aria-busy="true" />;
  return <img className="kernel-image" src={url} alt={t('kernel.image')} />;
}

export function isImage(artifact: KernelArtifact): boolean {
  // SVG is left out: an <img> would render it, but it is text the plain form already shows.
  return artifact.mime.startsWith('image/') && artifact.mime !== 'image/svg+xml';
}
