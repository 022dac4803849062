import { memo, useMemo } from 'react';
import type { CairnClient } from '../../../../sidecar/src/client';
import type { KernelArtifact } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import type { KernelCell } from '../../state/kernel-view';
import { isImage, KernelImage } from '../kernel/KernelImage';

/** Every image the cell showed, in order: its displays, then the value of its last line. */
export function cellImages(cell: KernelCell): KernelArtifact[] {
  const rich = cell.outputs.flatMap((o) => (o.kind === 'display' ? [o.output] : []));
  if (cell.returnValue) rich.push(cell.returnValue);
  return rich.flatMap((output) => output.artifacts.filter(isImage));
}

/** A step's images, shown as the kernel panel shows them; nothing when its cell showed none. */
export const CodeStepImages = memo(function CodeStepImages({
  client,
  cell,
}: {
  client: CairnClient;
  cell: KernelCell | null;
}) {
  const t = useT();
  const images = useMemo(() => (cell ? cellImages(cell) : []), [cell]);
  if (images.length === 0) return null;
  return (
    <div className="tool-card-section">
      <h4 className="tool-card-label">{t('codeStep.images')}</h4>
      <div className="kernel-display">
        {images.map((artifact) => (
          <KernelImage key={artifact.id} client={client} artifact={artifact} />
        ))}
      </div>
    </div>
  );
});
