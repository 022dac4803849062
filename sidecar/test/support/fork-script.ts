// Scripts a session and its forks, which ask one model server at the same time: each request is answered
// from its own conversation's replies (the parent's, or a fork's found by the task its prompt names).
import type { ModelServer, RecordedRequest, ScriptedReply } from './model-server';

export const PARENT = 'parent';

/** The task of the fork whose request this is (its prompt's `Fork task:` line); null for the parent's. */
export function forkTaskOf(req: RecordedRequest): string | null {
  let task: string | null = null;
  for (const message of req.body.messages) {
    if (message.role !== 'user' || !Array.isArray(message.content)) continue;
    for (const block of message.content as { type: string; text?: string }[]) {
      const match = block.type === 'text' ? /^Fork task: (.+)$/m.exec(block.text ?? '') : null;
      if (match) task = match[1]!;
    }
  }
  return task;
}

export interface ForkScript {
  /** Replies to the parent's requests, in order. */
  parent(...replies: ScriptedReply[]): void;
  /** Replies to the requests of the fork with this task, in order. A request with none left waits for one. */
  fork(task: string, ...replies: ScriptedReply[]): void;
  /** The requests of a conversation so far (PARENT or a task). */
  requests(key: string): RecordedRequest[];
  /** Resolves once the conversation has made n requests. */
  waitForRequests(key: string, n: number): Promise<void>;
}

interface Conversation {
  replies: ScriptedReply[];
  requests: RecordedRequest[];
  /** Requests waiting for a reply to be scripted. */
  waiting: ((reply: ScriptedReply) => void)[];
  watchers: { n: number; resolve: () => void }[];
}

type Route = (req: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;
const routes = new WeakMap<ModelServer, { route: Route }>();

/** Routes the model server's requests by conversation; a later script on the same server replaces this one. */
export function forkScript(model: ModelServer): ForkScript {
  const conversations = new Map<string, Conversation>();
  const of = (key: string): Conversation => {
    let c = conversations.get(key);
    if (!c) {
      c = { replies: [], requests: [], waiting: [], watchers: [] };
      conversations.set(key, c);
    }
    return c;
  };
  const add = (key: string, replies: ScriptedReply[]) => {
    const c = of(key);
    for (const reply of replies) {
      const waiter = c.waiting.shift();
      if (waiter) waiter(reply);
      else c.replies.push(reply);
    }
  };
  const route: Route = (req) => {
    const c = of(forkTaskOf(req) ?? PARENT);
    c.requests.push(req);
    const reached = c.watchers.filter((w) => c.requests.length >= w.n);
    c.watchers = c.watchers.filter((w) => c.requests.length < w.n);
    for (const w of reached) w.resolve();
    const next = c.replies.shift();
    return next ?? new Promise<ScriptedReply>((resolve) => c.waiting.push(resolve));
  };
  const current = routes.get(model);
  if (current) {
    current.route = route;
  } else {
    const state = { route };
    routes.set(model, state);
    // One handler for the harness's life, putting itself back each time: the queue never runs dry.
    const handler: ScriptedReply = {
      kind: 'handler',
      handle: (req) => {
        model.enqueue(handler);
        return state.route(req);
      },
    };
    model.enqueue(handler);
  }
  return {
    parent: (...replies) => add(PARENT, replies),
    fork: (task, ...replies) => add(task, replies),
    requests: (key) => of(key).requests,
    waitForRequests: (key, n) =>
      new Promise((resolve) => {
        const c = of(key);
        if (c.requests.length >= n) resolve();
        else c.watchers.push({ n, resolve });
      }),
  };
}

/** A Fork call. */
export const forkCall = (method: string, args: Record<string, unknown> = {}, id?: string): ScriptedReply => ({
  content: [{ type: 'tool_use', ...(id ? { id } : {}), name: 'Fork', input: { method, arguments: args } }],
});

export const spawn = (task: string, instruction = `Do ${task}.`, tools?: string[]) =>
  ({
    type: 'tool_use',
    name: 'Fork',
    input: { method: 'spawn', arguments: { task, instruction, ...(tools ? { tools } : {}) } },
  }) as const;

export const text = (value: string): ScriptedReply => ({ content: [{ type: 'text', text: value }] });

/** The messages of a request without the prompt cache's marks, which differ between conversations. */
export function withoutCacheMarks(messages: RecordedRequest['body']['messages']): unknown[] {
  return JSON.parse(JSON.stringify(messages), (key, value) => (key === 'cache_control' ? undefined : value));
}
