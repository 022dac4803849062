import { isAppUrl } from './navigation-policy';

/** The only channels the preload may invoke; the main process handles exactly these. */
export const IPC_CHANNELS = {
  getBackend: 'cairn:get-backend',
  setRemoteBackend: 'cairn:set-remote-backend',
  clearRemoteBackend: 'cairn:clear-remote-backend',
  pickFolder: 'cairn:pick-folder',
  openExternal: 'cairn:open-external',
  openLoginUrl: 'cairn:open-login-url',
  appVersion: 'cairn:app-version',
} as const;

export type IpcChannel = (typeof IPC_CHANNELS)[keyof typeof IPC_CHANNELS];

/** The parts of Electron's WebFrameMain the check reads. */
export interface FrameLike {
  readonly url: string;
  readonly parent: unknown;
  readonly processId?: number;
  readonly routingId?: number;
}

/** The part of an IpcMainInvokeEvent the check reads. */
export interface IpcSenderLike {
  readonly senderFrame: FrameLike | null;
}

function sameFrame(a: FrameLike, b: FrameLike): boolean {
  if (a === b) return true;
  // Electron may hand out a fresh wrapper object for the same frame; its ids still identify it.
  return (
    a.processId !== undefined &&
    a.routingId !== undefined &&
    a.processId === b.processId &&
    a.routingId === b.routingId
  );
}

/**
 * Whether an IPC message comes from the app's own page in our window: the window's top-level main
 * frame, showing the app's origin (app://cairn). A subframe, another window, a page that navigated elsewhere or a frame
 * already gone (null) is refused, so no other content can reach the bridge's handlers.
 */
export function isTrustedSender(event: IpcSenderLike, mainFrame: FrameLike | null | undefined): boolean {
  const frame = event.senderFrame;
  if (!frame || !mainFrame) return false;
  if (frame.parent !== null && frame.parent !== undefined) return false;
  if (!sameFrame(frame, mainFrame)) return false;
  // isAppUrl compares scheme and host: Node's URL gives custom schemes an opaque origin ("null").
  return isAppUrl(frame.url);
}
