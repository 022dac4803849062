// The renderer (React + Vite) arrives with its own issue. It will talk to the sidecar only through
// a typed client built on the protocol schemas, imported as types like this one.
import type { Health } from '../../sidecar/src/protocol';

export type { Health };
