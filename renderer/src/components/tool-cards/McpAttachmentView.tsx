import { useMemo } from 'react';
import { useT } from '../../i18n/i18n';
import { downloadBlob } from '../download-blob';
import { ExternalLink, safeLinkUrl } from '../MarkdownView';
import { attachmentBlob, attachmentFileName, isInlineImage, type McpAttachment } from './mcp-attachments';
import '../../i18n/messages/tool-bodies';

/** One item an MCP tool returned besides text: an image inline, anything else named with its download. */
export function McpAttachmentView({ attachment, index }: { attachment: McpAttachment; index: number }) {
  const t = useT();
  const src = useMemo(
    () => (isInlineImage(attachment) ? `data:${attachment.mimeType};base64,${attachment.data}` : null),
    [attachment],
  );
  if (src !== null) {
    return (
      <figure className="mcp-attachment mcp-attachment--image">
        <img src={src} alt={t('tool.mcp.image', { number: index + 1 })} className="tool-card-image" />
      </figure>
    );
  }
  if (attachment.type === 'resource_link') {
    const safe = safeLinkUrl(attachment.uri);
    return (
      <div className="mcp-attachment">
        <span className="tool-card-badge">{t('tool.mcp.link')}</span>
        {safe ? <ExternalLink href={safe}>{attachment.name}</ExternalLink> : <code>{attachment.uri}</code>}
        {attachment.description && <span className="tool-card-note">{attachment.description}</span>}
      </div>
    );
  }
  const blob = attachmentBlob(attachment);
  const name = attachmentFileName(attachment, index);
  return (
    <div className="mcp-attachment">
      <span className="tool-card-badge">{t(`tool.mcp.kind.${attachment.type}`)}</span>
      <code className="mcp-attachment-name">
        {attachment.type === 'resource' ? attachment.uri : (attachment.mimeType ?? '')}
      </code>
      {blob && (
        <button type="button" className="conv-button" onClick={() => downloadBlob(blob, name)}>
          {t('tool.mcp.download', { name })}
        </button>
      )}
    </div>
  );
}
