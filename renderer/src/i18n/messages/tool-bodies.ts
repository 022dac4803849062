import { english } from '../english';

/**
 * What an open tool card shows for commands, MCP and other tools: sections, show all, exit codes,
 * attachments, why a call stopped. The collapsed frame's strings are in tool-cards.
 */
export const toolBodyMessages = english({
  'tool.error': 'Error',
  'tool.noArguments': 'No arguments',
  'tool.showAll': 'Show all',
  'tool.showAllLines': 'Show all ({omitted} more lines)',
  'tool.showAllLabel': 'Show all {total} lines',
  'tool.showLess': 'Show less',
  'tool.shell.command': 'Command',
  'tool.shell.exitCode': 'Exit code {code}',
  'tool.shell.signal': 'Stopped by {signal}',
  'tool.shell.timedOut': 'Timed out',
  'tool.mcp.origin': 'MCP server {server}, tool {tool}',
  'tool.mcp.progress': 'Progress',
  'tool.mcp.attachments': 'Images and files',
  'tool.mcp.loading': 'Loading the images and files…',
  'tool.mcp.loadError': 'Could not load the images and files: {message}',
  'tool.mcp.image': 'Image {number} from the tool',
  'tool.mcp.link': 'link',
  'tool.mcp.download': 'Download {name}',
  'tool.mcp.kind.image': 'image',
  'tool.mcp.kind.audio': 'audio',
  'tool.mcp.kind.resource': 'resource',
  'tool.stop.timeout': 'The call timed out; it was stopped with everything it started.',
  'tool.stop.parent': 'The call that started it ended, so it was cancelled with everything it started.',
  'tool.stop.sessionClosed': 'Its session was deleted, so the call was cancelled with everything it started.',
  'tool.stop.shutdown': 'Cairn stopped while this call ran; it was stopped with everything it started.',
  'tool.stop.cancelled': 'The call was cancelled; everything it started was stopped.',
  'tool.mcp.plain':
    'This result is long ({count} characters), so it is shown as plain text, not as Markdown.',
});
