import { useContext, useState } from 'react';
import type { AnswerQuestionRequest, ApprovalInfo } from '../../../sidecar/src/protocol';
import { useT } from '../i18n/i18n';
import { RememberRuleEditor } from './RememberRuleEditor';
import { SessionHasProject } from './session-project';
import '../i18n/messages/permissions';

/**
 * An approval's answers: allow once, allow for this session, always allow…, deny, always deny…. The
 * remembering ones need the server's suggested rule, so without `permission` only allow and deny remain.
 */
export function ApprovalChoices(props: {
  permission: ApprovalInfo | null;
  busy: boolean;
  /** The id of the card's hidden-characters warning, for the buttons that let the call run. */
  warningId: string | undefined;
  onSend(request: AnswerQuestionRequest): void;
}) {
  const t = useT();
  const hasProject = useContext(SessionHasProject);
  const [editing, setEditing] = useState<'allow' | 'deny' | null>(null);
  const { permission, busy, warningId, onSend } = props;

  if (editing !== null && permission !== null) {
    return (
      <RememberRuleEditor
        answer={editing}
        suggestion={permission.suggestion}
        hasProject={hasProject}
        busy={busy}
        onSave={onSend}
        onCancel={() => setEditing(null)}
      />
    );
  }
  return (
    <div className="question-card-actions">
      <button
        type="button"
        className="conv-button conv-button--primary"
        disabled={busy}
        aria-describedby={warningId}
        onClick={() => onSend({ answer: 'allow' })}
      >
        {t('question.approval.allowOnce')}
      </button>
      {permission !== null && (
        <>
          <button
            type="button"
            className="conv-button"
            disabled={busy}
            aria-describedby={warningId}
            onClick={() => onSend({ answer: 'allow', remember: 'session' })}
          >
            {t('question.approval.allowSession')}
          </button>
          <button
            type="button"
            className="conv-button"
            disabled={busy}
            aria-describedby={warningId}
            onClick={() => setEditing('allow')}
          >
            {t('question.approval.alwaysAllow')}
          </button>
        </>
      )}
      <button
        type="button"
        className="conv-button"
        disabled={busy}
        onClick={() => onSend({ answer: 'deny' })}
      >
        {t('question.approval.deny')}
      </button>
      {permission !== null && (
        <button type="button" className="conv-button" disabled={busy} onClick={() => setEditing('deny')}>
          {t('question.approval.alwaysDeny')}
        </button>
      )}
    </div>
  );
}
