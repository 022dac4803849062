import { HostMessage, type SidecarMessage } from '../protocol/host';
import { UsageError } from './usage';

/** Electron's `process.parentPort` in a utility process: messages arrive as events carrying `.data`. */
interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  off(event: 'message', listener: (event: { data: unknown }) => void): unknown;
}

type ProcessWithParentPort = NodeJS.Process & { parentPort?: ParentPortLike | null };

/** The channel to the desktop host that started this sidecar (`cairn serve --parent-ipc`). */
export interface ParentChannel {
  readonly kind: 'parent-port' | 'node-ipc';
  send(message: SidecarMessage): void;
  /** Each valid message from the host; anything else is reported on stderr and ignored. */
  onMessage(listener: (message: HostMessage) => void): void;
  /**
   * The host went away (a Node IPC channel closed). Electron's parentPort has no such event: Electron
   * ends its utility processes itself when the app exits.
   */
  onDisconnect(listener: () => void): void;
  /** Resolves when the host closes the channel, or after `ms` (Electron's parentPort never closes). */
  waitForRelease(ms: number): Promise<void>;
  /** Lets go of the channel, so it no longer keeps the process alive. */
  close(): void;
}

/**
 * Opens the channel to the parent: Electron's parentPort when running as a utility process, else the
 * IPC channel of Node's child_process.fork. Throws a UsageError when there is neither.
 */
export function openParentChannel(proc: ProcessWithParentPort = process): ParentChannel {
  const parentPort = proc.parentPort;
  if (parentPort) return parentPortChannel(parentPort);
  if (typeof proc.send === 'function' && proc.connected) return nodeIpcChannel(proc);
  throw new UsageError(
    '--parent-ipc needs a channel to the process that started cairn: Electron’s utilityProcess or ' +
      'Node’s child_process.fork. Leave the flag out to run cairn serve on its own.',
  );
}

function parse(data: unknown): HostMessage | null {
  const parsed = HostMessage.safeParse(data);
  if (parsed.success) return parsed.data;
  const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
  process.stderr.write(`cairn: ignored a message from the host of unknown type ${JSON.stringify(type)}\n`);
  return null;
}

function parentPortChannel(port: ParentPortLike): ParentChannel {
  const handlers: ((event: { data: unknown }) => void)[] = [];
  return {
    kind: 'parent-port',
    send(message) {
      port.postMessage(message);
    },
    onMessage(listener) {
      const handler = (event: { data: unknown }) => {
        const message = parse(event.data);
        if (message) listener(message);
      };
      handlers.push(handler);
      port.on('message', handler);
    },
    onDisconnect() {
      // No such event on a parentPort (see the interface).
    },
    waitForRelease(ms) {
      return new Promise((resolve) => setTimeout(resolve, ms));
    },
    close() {
      for (const handler of handlers.splice(0)) port.off('message', handler);
    },
  };
}

function nodeIpcChannel(proc: NodeJS.Process): ParentChannel {
  const registered: { event: 'message' | 'disconnect'; handler: (...args: unknown[]) => void }[] = [];
  const on = (event: 'message' | 'disconnect', handler: (...args: unknown[]) => void) => {
    registered.push({ event, handler });
    proc.on(event, handler);
  };
  return {
    kind: 'node-ipc',
    send(message) {
      if (!proc.connected || !proc.send) return;
      // The callback takes the error of a host that closed the channel meanwhile: nobody to tell.
      proc.send(message, undefined, undefined, (error: Error | null) => void error);
    },
    onMessage(listener) {
      on('message', (data) => {
        const message = parse(data);
        if (message) listener(message);
      });
    },
    onDisconnect(listener) {
      on('disconnect', () => listener());
      // Gone before anyone listened (the host died while the server started): the event has passed.
      if (!proc.connected) setImmediate(listener);
    },
    waitForRelease(ms) {
      if (!proc.connected) return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          proc.off('disconnect', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        proc.once('disconnect', done);
      });
    },
    close() {
      for (const { event, handler } of registered.splice(0)) proc.off(event, handler);
      // An open IPC channel keeps the event loop, and so the process, alive.
      if (proc.connected) proc.disconnect?.();
    },
  };
}
