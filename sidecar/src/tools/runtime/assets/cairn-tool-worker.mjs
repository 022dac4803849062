// A worker process for a JavaScript tool loaded with LoadTool in `mode: "process"`. Cairn starts it with
// stdin ignored and the channel on fd 3 (JSON lines both ways), so whatever the tool prints to stdout or
// stderr (or a program it starts inherits) cannot reach the channel; Cairn keeps that output for its log.
import net from 'node:net';
import { serveToolWorker } from './tool-worker-core.mjs';

const channel = new net.Socket({ fd: 3 });
const handlers = [];
let buffered = '';

serveToolWorker({
  send: (message) => channel.write(`${JSON.stringify(message)}\n`),
  onMessage: (handler) => handlers.push(handler),
});

channel.setEncoding('utf8');
channel.on('data', (chunk) => {
  buffered += chunk;
  let end = buffered.indexOf('\n');
  while (end !== -1) {
    const line = buffered.slice(0, end).trim();
    buffered = buffered.slice(end + 1);
    if (line !== '') receive(line);
    end = buffered.indexOf('\n');
  }
});
// Cairn closes the channel when it stops the tool, or when it ends (or crashed): nothing of the tool runs on,
// the programs it started included — the worker leads their process group (POSIX).
function exitWithGroup() {
  if (process.platform !== 'win32') {
    try {
      process.kill(-process.pid, 'SIGKILL');
    } catch {
      // Not a group leader: only this process goes.
    }
  }
  process.exit(0);
}
channel.on('end', exitWithGroup);
channel.on('error', exitWithGroup);

function receive(line) {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    console.error(`cairn-tool-worker: not a JSON line: ${line.slice(0, 200)}`);
    return;
  }
  for (const handler of handlers) handler(message);
}
