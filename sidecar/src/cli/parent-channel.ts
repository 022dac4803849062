import { VERSION } from '../config/version';
import { HostConfigure, HostMessage, type SidecarMessage } from '../protocol/host';
import { UsageError } from './usage';

/** Electron's `process.parentPort` in a utility process: messages arrive as events carrying `.data`. */
interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  off(event: 'message', listener: (event: { data: unknown }) => void): unknown;
}

type ProcessWithParentPort = NodeJS.Process & { parentPort?: ParentPortLike | null };

/** How the handshake ended: with the host's token, or with a host that asked to stop before sending one. */
export type Handshake = { kind: 'configured'; token: string } | { kind: 'shutdown' };

/** The channel to the desktop host that started this sidecar (`cairn serve --parent-ipc`). */
export interface ParentChannel {
  readonly kind: 'parent-port' | 'node-ipc';
  send(message: SidecarMessage): void;
  /**
   * Says `hello` and waits at most `timeoutMs` for the host's `configure`. The token travels only here:
   * the environment and the arguments of a process can be read by every process of the same user.
   * Rejects, saying why, when the token is not valid, the host goes away, or no answer comes in time.
   */
  handshake(timeoutMs: number): Promise<Handshake>;
  /** Each valid message from the host after the handshake; anything else is reported on stderr and ignored. */
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

/** What differs between the two kinds of channel; the protocol on top is the same. */
interface Transport {
  readonly kind: ParentChannel['kind'];
  post(message: SidecarMessage): void;
  /** Starts reading the host's messages; called once. */
  listen(deliver: (data: unknown) => void): void;
  /** Returns a function that removes the listener. */
  onDisconnect(listener: () => void): () => void;
  waitForRelease(ms: number): Promise<void>;
  close(): void;
}

/**
 * Opens the channel to the parent: Electron's parentPort when running as a utility process, else the
 * IPC channel of Node's child_process.fork. Throws a UsageError when there is neither.
 */
export function openParentChannel(proc: ProcessWithParentPort = process): ParentChannel {
  const parentPort = proc.parentPort;
  if (parentPort) return channelOver(parentPortTransport(parentPort), proc.pid);
  if (typeof proc.send === 'function' && proc.connected) return channelOver(nodeIpcTransport(proc), proc.pid);
  throw new UsageError(
    '--parent-ipc needs a channel to the process that started cairn: Electron’s utilityProcess or ' +
      'Node’s child_process.fork. Leave the flag out to run cairn serve on its own.',
  );
}

/** A reader returns true once it wants no more messages. */
type Reader = (data: unknown) => boolean | undefined;

function channelOver(transport: Transport, pid: number): ParentChannel {
  // Messages that arrive while nobody reads (between the handshake and the server's start, say) are
  // kept for the next reader rather than lost.
  const kept: unknown[] = [];
  const readers = new Set<Reader>();
  let listening = false;
  const read = (reader: Reader): (() => void) => {
    if (!listening) {
      listening = true;
      transport.listen((data) => {
        if (readers.size === 0) kept.push(data);
        for (const each of [...readers]) if (each(data) === true) readers.delete(each);
      });
    }
    while (kept.length > 0) if (reader(kept.shift()) === true) return () => undefined;
    readers.add(reader);
    return () => readers.delete(reader);
  };

  return {
    kind: transport.kind,
    send: (message) => transport.post(message),
    handshake(timeoutMs) {
      return new Promise((resolve, reject) => {
        let settled = false;
        let stopReading = (): void => undefined;
        const settle = (outcome: () => void) => {
          settled = true;
          clearTimeout(timer);
          stopReading();
          offDisconnect();
          outcome();
        };
        const timer = setTimeout(
          () =>
            settle(() =>
              reject(
                new Error(
                  `The host did not hand over the server token within ${timeoutMs / 1000} s of the sidecar's ` +
                    'hello, so nothing was served. With --parent-ipc the host must answer hello with ' +
                    '{"type":"configure","token":…}; leave the flag out to run cairn serve on its own.',
                ),
              ),
            ),
          timeoutMs,
        );
        const offDisconnect = transport.onDisconnect(() =>
          settle(() =>
            reject(
              new Error(
                'The host closed the channel before handing over the server token; nothing was served.',
              ),
            ),
          ),
        );
        stopReading = read((data) => {
          if (settled) return true;
          const type = typeOf(data);
          if (type === 'shutdown') settle(() => resolve({ kind: 'shutdown' }));
          else if (type !== 'configure') reportIgnored(type);
          else {
            const parsed = HostConfigure.safeParse(data);
            settle(() =>
              parsed.success
                ? resolve({ kind: 'configured', token: parsed.data.token })
                : reject(new Error(invalidTokenText(data))),
            );
          }
          return settled;
        });
        if (!settled) transport.post({ type: 'hello', version: VERSION, pid });
      });
    },
    onMessage(listener) {
      read((data) => {
        const parsed = HostMessage.safeParse(data);
        if (parsed.success) listener(parsed.data);
        else reportIgnored(typeOf(data));
        return false;
      });
    },
    onDisconnect(listener) {
      transport.onDisconnect(listener);
    },
    waitForRelease: (ms) => transport.waitForRelease(ms),
    close: () => transport.close(),
  };
}

function typeOf(data: unknown): unknown {
  return typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
}

function reportIgnored(type: unknown): void {
  process.stderr.write(`cairn: ignored a message from the host of unknown type ${JSON.stringify(type)}\n`);
}

/** Says what is wrong with the token without repeating it. */
function invalidTokenText(data: unknown): string {
  const token = (data as { token?: unknown }).token;
  const got = typeof token === 'string' ? `${token.length} characters` : 'no token';
  return (
    `The host sent a server token the sidecar cannot use (${got}; it takes 32 to 512 of A-Z, a-z, 0-9, ` +
    '"-" and "_"), so nothing was served. The desktop app and its sidecar may be of different versions: ' +
    'reinstall Cairn.'
  );
}

function parentPortTransport(port: ParentPortLike): Transport {
  let handler: ((event: { data: unknown }) => void) | null = null;
  return {
    kind: 'parent-port',
    post(message) {
      port.postMessage(message);
    },
    listen(deliver) {
      handler = (event) => deliver(event.data);
      port.on('message', handler);
    },
    onDisconnect() {
      // No such event on a parentPort (see ParentChannel.onDisconnect).
      return () => undefined;
    },
    waitForRelease(ms) {
      return new Promise((resolve) => setTimeout(resolve, ms));
    },
    close() {
      if (handler) port.off('message', handler);
      handler = null;
    },
  };
}

function nodeIpcTransport(proc: NodeJS.Process): Transport {
  const registered: { event: 'message' | 'disconnect'; handler: (...args: unknown[]) => void }[] = [];
  const on = (event: 'message' | 'disconnect', handler: (...args: unknown[]) => void) => {
    registered.push({ event, handler });
    proc.on(event, handler);
  };
  return {
    kind: 'node-ipc',
    post(message) {
      if (!proc.connected || !proc.send) return;
      // The callback takes the error of a host that closed the channel meanwhile: nobody to tell.
      proc.send(message, undefined, undefined, (error: Error | null) => void error);
    },
    listen(deliver) {
      on('message', (data) => deliver(data));
    },
    onDisconnect(listener) {
      let active = true;
      const handler = () => {
        if (active) listener();
      };
      on('disconnect', handler);
      // Gone before anyone listened (the host died while the server started): the event has passed.
      if (!proc.connected) setImmediate(handler);
      return () => {
        active = false;
        proc.off('disconnect', handler);
      };
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
