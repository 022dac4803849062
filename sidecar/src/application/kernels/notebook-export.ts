import type { CairnEvent, Notebook, NotebookCell, NotebookOutput } from '../../protocol';

/** An artifact's bytes and type, or null when its file is gone. */
export type ArtifactReader = (id: string) => { mime: string; data: Buffer } | null;

/** MIME types a notebook stores as base64 rather than text. */
const BINARY = new Set(['image/png', 'image/jpeg', 'image/gif', 'application/pdf']);

/**
 * A kernel's history as a Jupyter notebook (nbformat 4.5): one code cell per execution, in order, with its
 * outputs as Jupyter has them (streams, display_data, execute_result, error), images inline as base64.
 * Built from the session's journal, the one record of what ran.
 */
export function buildNotebook(events: CairnEvent[], kernel: string, read: ArtifactReader): Notebook {
  const cells: NotebookCell[] = [];
  const byExecution = new Map<string, NotebookCell>();
  let pythonVersion: string | null = null;
  for (const event of events) {
    if (!event.type.startsWith('kernel.') || !('kernel' in event) || event.kernel !== kernel) continue;
    if (event.type === 'kernel.started') {
      pythonVersion = event.python;
      continue;
    }
    if (event.type === 'kernel.execution_started') {
      const cell: NotebookCell = {
        id: event.execution_id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64),
        cell_type: 'code',
        execution_count: cells.length + 1,
        metadata: {},
        source: lines(event.code),
        outputs: [],
      };
      cells.push(cell);
      byExecution.set(event.execution_id, cell);
      continue;
    }
    const cell = 'execution_id' in event && event.execution_id ? byExecution.get(event.execution_id) : null;
    if (!cell) continue;
    switch (event.type) {
      case 'kernel.stream': {
        const last = cell.outputs.at(-1);
        if (last?.output_type === 'stream' && last.name === event.stream) {
          last.text = lines(joined(last.text) + event.text);
        } else {
          cell.outputs.push({ output_type: 'stream', name: event.stream, text: lines(event.text) });
        }
        break;
      }
      case 'kernel.display':
        cell.outputs.push({ output_type: 'display_data', data: bundle(event, read), metadata: {} });
        break;
      case 'kernel.result':
        if (event.return_value) {
          cell.outputs.push({
            output_type: 'execute_result',
            execution_count: cell.execution_count,
            data: bundle(event.return_value, read),
            metadata: {},
          });
        }
        if (event.error) {
          cell.outputs.push(errorOutput(event.error.type, event.error.message, event.error.traceback));
        }
        break;
      case 'kernel.error':
        cell.outputs.push(errorOutput(event.code, event.message, []));
        break;
      default:
        break;
    }
  }
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
      language_info: { name: 'python', ...(pythonVersion ? { version: pythonVersion } : {}) },
    },
    cells,
  };
}

function errorOutput(ename: string, evalue: string, traceback: string[]): NotebookOutput {
  return { output_type: 'error', ename, evalue, traceback: [...traceback, `${ename}: ${evalue}`] };
}

/** A MIME bundle for Jupyter: text/plain inline, the saved files read back. */
function bundle(
  output: { text: string | null; artifacts: { id: string; mime: string }[] },
  read: ArtifactReader,
): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  if (output.text !== null) data['text/plain'] = lines(output.text);
  for (const artifact of output.artifacts) {
    const file = read(artifact.id);
    if (!file) continue;
    if (BINARY.has(file.mime)) data[file.mime] = file.data.toString('base64');
    else if (file.mime === 'application/json') data[file.mime] = parseJson(file.data.toString('utf8'));
    else data[file.mime] = lines(file.data.toString('utf8'));
  }
  return data;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Jupyter's multi-line strings: a list of lines, each but the last ending with its newline. */
function lines(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
}

function joined(text: string | string[]): string {
  return typeof text === 'string' ? text : text.join('');
}
