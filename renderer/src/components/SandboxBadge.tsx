import type { Project } from '../../../sidecar/src/protocol';
import { useT } from '../i18n/i18n';

/** Whether the session's commands run in its project's sandbox (and with network), its title saying what that means. */
export function SandboxBadge({ project }: { project: Project }) {
  const t = useT();
  const state = project.sandbox === 'off' ? 'off' : project.sandbox_network === 'off' ? 'noNetwork' : 'on';
  const hint = t(`session.sandbox.${state}Hint`);
  return (
    <span className={`sandbox-badge sandbox-badge--${state}`} title={hint} data-sandbox={state}>
      {t(`session.sandbox.${state}`)}
      <span className="visually-hidden">{` ${hint}`}</span>
    </span>
  );
}
