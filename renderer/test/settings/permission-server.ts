import type { PermissionDecision, PermissionRule, Project } from '../../../sidecar/src/protocol';

/** One request the fake saw. */
export interface SeenRequest {
  method: string;
  path: string;
  body: unknown;
}

export function project(patch: Partial<Project> & { id: string }): Project {
  return {
    path: `/work/${patch.id}`,
    name: patch.id,
    created_at: '',
    last_opened_at: '',
    python_path: null,
    sandbox: 'off',
    sandbox_network: 'on',
    ...patch,
  };
}

export function rule(patch: Partial<PermissionRule> & { id: string }): PermissionRule {
  return {
    tool: 'Bash',
    pattern: null,
    action: 'allow',
    project_id: null,
    session_id: null,
    created_at: '2025-01-01T00:00:00.000Z',
    ...patch,
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const error = (status: number, code: string, message: string) => json(status, { error: { code, message } });

/**
 * The permission rules' and projects' API in memory, behind a fake `fetch`: a pattern "bad[" is refused as
 * the server refuses a bad pattern, and `sandboxUnavailable` answers turning a sandbox on with a 409.
 */
export function permissionServer(options: {
  rules?: PermissionRule[];
  projects?: Project[];
  decision?: PermissionDecision;
  sandboxUnavailable?: string;
}) {
  const rules = (options.rules ?? []).map((r) => ({ ...r }));
  const projects = (options.projects ?? []).map((p) => ({ ...p }));
  const requests: SeenRequest[] = [];
  let next = 1;

  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    const body =
      typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    requests.push({ method, path: url.pathname + url.search, body });
    const path = url.pathname;
    if (method === 'GET' && path === '/api/projects') return json(200, { projects });
    if (method === 'GET' && path === '/api/permission-rules') return json(200, { rules });
    if (method === 'POST' && path === '/api/permission-rules/test') {
      return json(
        200,
        options.decision ?? {
          decision: 'ask',
          rule_id: null,
          reason: "The session's mode is ask.",
          suggestion: { tool: 'Bash', pattern: null },
        },
      );
    }
    if (body?.pattern === 'bad[') return error(400, 'bad_request', 'pattern "bad[" has an unclosed [.');
    if (method === 'POST' && path === '/api/permission-rules') {
      const created = rule({ ...(body as Partial<PermissionRule>), id: `rule_new${next++}` });
      rules.push(created);
      return json(201, created);
    }
    const ruleMatch = /^\/api\/permission-rules\/([^/]+)$/.exec(path);
    const found = rules.find((r) => r.id === ruleMatch?.[1]);
    if (ruleMatch && !found) return error(404, 'not_found', 'Permission rule not found.');
    if (found && method === 'PATCH') {
      Object.assign(found, body);
      return json(200, found);
    }
    if (found && method === 'DELETE') {
      rules.splice(rules.indexOf(found), 1);
      return new Response(null, { status: 204 });
    }
    const projectMatch = /^\/api\/projects\/([^/]+)$/.exec(path);
    const folder = projects.find((p) => p.id === projectMatch?.[1]);
    if (folder && method === 'PATCH') {
      if (body?.sandbox === 'on' && options.sandboxUnavailable)
        return error(409, 'sandbox_unavailable', options.sandboxUnavailable);
      Object.assign(folder, body);
      return json(200, folder);
    }
    return error(404, 'not_found', `No route ${method} ${path}`);
  };
  return { fetch: fetchImpl as typeof fetch, requests, rules, projects };
}
