import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import type { AnswerQuestionRequest, RuleSuggestion } from '../../../sidecar/src/protocol';
import { useT } from '../i18n/i18n';
import { focusOnMount } from './focus-on-mount';
import '../i18n/messages/permissions';

type Scope = 'project' | 'global';

/**
 * "Always allow…" or "Always deny…" of an approval: the rule the server suggests, its pattern editable
 * (empty: any input), saved for the session's project or everywhere, and the call answered with it.
 */
export function RememberRuleEditor(props: {
  answer: 'allow' | 'deny';
  suggestion: RuleSuggestion;
  hasProject: boolean;
  busy: boolean;
  onSave(request: AnswerQuestionRequest): void;
  onCancel(): void;
}) {
  const t = useT();
  const id = useId();
  const [pattern, setPattern] = useState(props.suggestion.pattern ?? '');
  const [scope, setScope] = useState<Scope>(props.hasProject ? 'project' : 'global');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = pattern.trim();
    props.onSave({ answer: props.answer, remember: scope, pattern: trimmed === '' ? null : trimmed });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    // The editor's Esc closes it; it is not the composer's "cancel the turn".
    event.preventDefault();
    event.stopPropagation();
    props.onCancel();
  };

  const tool = props.suggestion.tool;
  const title =
    props.answer === 'allow'
      ? t('question.approval.ruleAllowTitle', { tool })
      : t('question.approval.ruleDenyTitle', { tool });
  return (
    <form className="remember-rule" aria-label={title} onSubmit={submit} onKeyDown={onKeyDown}>
      <p className="remember-rule-title">{title}</p>
      <label className="remember-rule-label" htmlFor={`${id}-pattern`}>
        {t('question.approval.rulePattern')}
      </label>
      <input
        id={`${id}-pattern`}
        // Opened by the user's click, so taking focus here cannot catch an Enter meant for the composer.
        ref={focusOnMount}
        type="text"
        className="question-card-input remember-rule-pattern"
        value={pattern}
        disabled={props.busy}
        aria-describedby={`${id}-hint`}
        autoComplete="off"
        spellCheck="false"
        onChange={(event) => setPattern(event.target.value)}
      />
      <p id={`${id}-hint`} className="remember-rule-hint">
        {t('question.approval.rulePatternHint', { tool })}
      </p>
      <fieldset className="remember-rule-scope" disabled={props.busy}>
        <legend>{t('question.approval.ruleScope')}</legend>
        {props.hasProject && (
          <label>
            <input
              type="radio"
              name={`${id}-scope`}
              checked={scope === 'project'}
              onChange={() => setScope('project')}
            />
            {t('question.approval.scopeProject')}
          </label>
        )}
        <label>
          <input
            type="radio"
            name={`${id}-scope`}
            checked={scope === 'global'}
            onChange={() => setScope('global')}
          />
          {t('question.approval.scopeGlobal')}
        </label>
      </fieldset>
      <div className="question-card-actions">
        <button
          type="submit"
          className={
            props.answer === 'allow' ? 'conv-button conv-button--primary' : 'conv-button danger-button'
          }
          disabled={props.busy}
        >
          {props.answer === 'allow' ? t('question.approval.saveAllow') : t('question.approval.saveDeny')}
        </button>
        <button type="button" className="conv-button" disabled={props.busy} onClick={props.onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
