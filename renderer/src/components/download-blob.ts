/**
 * Saves a blob held in memory as a file through an anchor with `download`: the same in a browser and in the
 * desktop app (Electron runs it as a download), and the token never goes into a URL.
 */
export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download from memory; the URL is not needed after this turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A file name from a session's title: what file systems refuse becomes "-", never empty, not too long. */
export function fileNameFor(title: string, extension: string): string {
  const base = title
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are refused in file names
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.-]+|[.\s]+$/g, '')
    .slice(0, 80)
    .trim();
  return `${base || 'session'}.${extension}`;
}
