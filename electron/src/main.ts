// The Electron host arrives with its own issue: a thin main process that starts the sidecar and
// owns the window. It knows nothing of agents; this placeholder keeps its tsconfig honest.
import type { App } from 'electron';

export function describeHost(app: Pick<App, 'getVersion'>): string {
  return `Cairn ${app.getVersion()}`;
}
