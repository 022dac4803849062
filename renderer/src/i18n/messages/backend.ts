import { english } from '../english';

/** Where the backend is: Settings → Backend, Test backend, and the desktop app's connection problem. */
export const backendMessages = english({
  'backend.title': 'Backend',
  'backend.mode': 'Cairn runs on',
  'backend.mode.local': 'This computer',
  'backend.mode.remote': 'A remote server:',
  'backend.source': 'Chosen by',
  'backend.source.local': 'Cairn, which started its own server on this computer',
  'backend.source.settings': 'These settings (the token is kept in the system keychain)',
  'backend.source.environment': 'The environment variables CAIRN_BACKEND_URL and CAIRN_BACKEND_TOKEN',
  'backend.envNotice':
    'CAIRN_BACKEND_URL and CAIRN_BACKEND_TOKEN set the backend, so it cannot be changed here. Change or unset them and start Cairn again.',
  'backend.test': 'Test backend',
  'backend.useLocal': 'Use this computer',
  'backend.confirmLocal':
    'Stop using the remote server and run Cairn on this computer? The window reloads; the server’s projects and sessions stay on the server.',
  'backend.switching': 'Switching…',
  'backend.error': 'The backend was not changed: {message}',
  'backend.form.title': 'Use a remote server',
  'backend.form.titleChange': 'Use another remote server',
  'backend.form.intro':
    'Connect to a Cairn server started with “cairn serve” on another machine. Its address must use https://, except on this computer.',
  'backend.form.url': 'Server address',
  'backend.form.token': 'Access token',
  'backend.form.tokenReplace': 'Enter the token again to change the server',
  'backend.form.tokenHint': 'Kept in the system keychain and never shown again.',
  'backend.form.submit': 'Connect to server',
  'backend.validation.url': 'Enter the server’s full address, starting with https://.',
  'backend.validation.token': 'Enter the server’s access token.',
  'backend.server.title': 'Server',
  'backend.server.connected': 'Connected to',

  'check.title': 'Test backend',
  'check.back': 'Back to settings',
  'check.intro': 'Checks the server the way Cairn uses it:',
  'check.step.health': 'Health check (without the token)',
  'check.step.capabilities': 'Capabilities (with the token)',
  'check.step.about': 'Server information',
  'check.step.websocket': 'Live connection (WebSocket sign-in)',
  'check.status.pending': 'Waiting',
  'check.status.running': 'Checking…',
  'check.status.ok': 'OK',
  'check.status.failed': 'Failed',
  'check.status.skipped': 'Skipped',
  'check.version': 'Cairn {version}',
  'check.latency': '{ms} ms',
  'check.details': 'Details: {message}',
  'check.skippedHint': 'Not run, because the server did not answer the health check.',
  'check.failure.unreachable':
    'The server cannot be reached. Check the address, that the server is running, and the network in between. If the address redirects elsewhere, use the final address: Cairn never follows redirects.',
  'check.failure.redirect':
    'The server answered with a redirect. Cairn never follows one, so the token cannot go to another address: use the server’s final address.',
  'check.failure.not_cairn':
    'Something answered, but it is not a Cairn server. Check the address, and the path a proxy forwards.',
  'check.failure.token_rejected': 'The server refused the token. Use the token the server was started with.',
  'check.failure.websocket_refused':
    'The live connection was refused. A proxy in front of the server must forward WebSocket upgrades on /api/ws.',
  'check.failure.error': 'This step failed.',
  'check.summary.ok': 'Every check passed.',
  'check.summary.failed': 'Some checks failed; see above.',
  'check.running': 'Checking…',
  'check.again': 'Run again',

  'backendProblem.title': 'Cairn has no backend',
  'backendProblem.intro': 'The app could not get a working Cairn server. What it said:',
  'backendProblem.retry': 'Try again',
});
