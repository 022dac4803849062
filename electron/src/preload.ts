// Runs sandboxed before the page, in its own world: it may require only 'electron' (everything
// else is bundled in), and it hands the page a frozen object of seven functions, never ipcRenderer.
import { contextBridge, ipcRenderer } from 'electron';
import { createDesktopBridge } from './desktop-bridge';

contextBridge.exposeInMainWorld(
  'cairn',
  createDesktopBridge((channel, ...args) => ipcRenderer.invoke(channel, ...args)),
);
