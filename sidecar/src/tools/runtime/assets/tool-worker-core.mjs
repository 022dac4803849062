// The JavaScript side of a tool loaded with LoadTool, apart from any transport: it loads the module, runs
// its methods and answers with the messages of sidecar/src/tools/runtime/loaded/worker-protocol.ts.
// Dependency-free, because it runs in two places: inside a worker process (cairn-tool-worker.mjs, started
// with any Node) and inside the sidecar for `mode: "local"` (over an in-memory channel), so both modes
// behave the same by construction.
import { createRequire } from 'node:module';

/** Lines of a stack trace kept in an error message. */
const STACK_LINES = 8;

/**
 * Serves one tool over `channel` (`send(message)`, `onMessage(handler)`): `load` imports the module and
 * calls its factory, `call` runs a method, `cancel` aborts a running call's signal, `stop` runs the tool's
 * optional close(). Every failure becomes a message; nothing is thrown into the caller.
 */
export function serveToolWorker(channel) {
  let tool = null;
  /** Running calls by id, each with the AbortController whose signal the method sees. */
  const running = new Map();
  const send = (message) => channel.send(message);

  channel.onMessage((message) => {
    switch (message?.type) {
      case 'load':
        void load(message);
        break;
      case 'call':
        void call(message);
        break;
      case 'cancel':
        running.get(message.id)?.abort();
        break;
      case 'stop':
        void stop();
        break;
    }
  });

  async function load({ module, file, factory, config }) {
    try {
      forgetCommonJs(file);
      const exports = await import(module);
      const create = findFactory(exports, factory);
      if (typeof create !== 'function') {
        const names = Object.keys(exports).join(', ') || 'nothing';
        throw new LoadProblem(
          `the module has no export "${factory}" (the function that returns the tool); it exports: ${names}`,
        );
      }
      let made;
      try {
        made = await create(config);
      } catch (err) {
        throw new LoadProblem(`${factory}(config) threw: ${errorText(err)}`);
      }
      tool = made;
      send({ type: 'loaded', tool: describe(made, factory) });
    } catch (err) {
      send({ type: 'load_error', message: err instanceof LoadProblem ? err.message : errorText(err) });
    }
  }

  async function call({ id, method, arguments: args, union_id, call_id }) {
    const spec = tool?.methods?.[method];
    if (typeof spec?.run !== 'function') {
      send({ type: 'done', id, value: null, error: `the tool has no method "${method}"`, cancelled: false });
      return;
    }
    const controller = new AbortController();
    running.set(id, controller);
    const ctx = { call_id, union_id: union_id ?? null, signal: controller.signal };
    try {
      const value =
        spec.kind === 'stream'
          ? await stream(id, spec.run(args, ctx), controller.signal)
          : await spec.run(args, ctx);
      send({ type: 'done', id, value: jsonValue(value), error: null, cancelled: controller.signal.aborted });
    } catch (err) {
      // A method that honours its signal ends by throwing (an AbortError): that is a cancelled call.
      const cancelled = controller.signal.aborted;
      send({ type: 'done', id, value: null, error: cancelled ? null : errorText(err), cancelled });
    } finally {
      running.delete(id);
    }
  }

  /** Sends each item as it comes; on cancel closes the generator (its `finally` runs) and stops. */
  async function stream(id, produced, signal) {
    if (typeof produced === 'string' || produced === null || typeof produced !== 'object') {
      throw new TypeError('a stream method must be a generator (async function* or function*)');
    }
    const iterator = produced[Symbol.asyncIterator]?.() ?? produced[Symbol.iterator]?.();
    if (!iterator) throw new TypeError('a stream method must be a generator (async function* or function*)');
    for (;;) {
      const step = await iterator.next();
      if (step.done) return step.value;
      if (signal.aborted) {
        await iterator.return?.();
        return undefined;
      }
      send({ type: 'item', id, text: itemText(step.value) });
    }
  }

  async function stop() {
    for (const controller of running.values()) controller.abort();
    try {
      if (typeof tool?.close === 'function') await tool.close();
    } catch (err) {
      console.error(`close() of the tool threw: ${errorText(err)}`);
    }
    send({ type: 'closed' });
  }
}

class LoadProblem extends Error {}

/** The factory: a named export, or a property of the default export (a CommonJS module's exports). */
function findFactory(exports, name) {
  if (typeof exports[name] === 'function') return exports[name];
  const fallback = exports.default;
  if (fallback && (typeof fallback === 'object' || typeof fallback === 'function')) return fallback[name];
  return undefined;
}

/** The tool as the sidecar validates it; only the shape is checked here, the sidecar says what is wrong. */
function describe(made, factory) {
  if (made === null || typeof made !== 'object' || Array.isArray(made)) {
    throw new LoadProblem(
      `${factory}(config) must return an object { name, description, methods }; it returned ${kindOf(made)}`,
    );
  }
  const { methods } = made;
  if (methods === null || typeof methods !== 'object' || Array.isArray(methods)) {
    throw new LoadProblem(
      `the tool's "methods" must be an object mapping each method's name to { kind, description, run }; it is ${kindOf(methods)}`,
    );
  }
  return {
    name: typeof made.name === 'string' ? made.name : null,
    description: typeof made.description === 'string' ? made.description : null,
    methods: Object.entries(methods).map(([name, spec]) => ({
      name,
      kind: typeof spec?.kind === 'string' ? spec.kind : null,
      description: typeof spec?.description === 'string' ? spec.description : null,
      input_schema: jsonValue(spec?.input_schema ?? null),
      runnable: typeof spec?.run === 'function',
    })),
  };
}

/**
 * Loading a path again must run its current contents. An ES module is fresh under a new URL (the sidecar
 * adds a query); a CommonJS one is kept by file name in require's cache, so it is dropped from there.
 */
function forgetCommonJs(file) {
  if (typeof file === 'string') delete createRequire(import.meta.url).cache[file];
}

function itemText(item) {
  if (typeof item === 'string') return item;
  if (item === undefined || item === null) return '';
  return JSON.stringify(jsonValue(item));
}

/** What crosses the channel: JSON as the process transport would carry it, text for anything else. */
function jsonValue(value) {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value)) ?? null;
  } catch {
    return String(value);
  }
}

function errorText(err) {
  if (err instanceof Error) {
    const stack = typeof err.stack === 'string' ? err.stack.split('\n').slice(0, STACK_LINES).join('\n') : '';
    return stack.includes(err.message) ? stack : `${err.name}: ${err.message}`;
  }
  return String(err);
}

function kindOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
