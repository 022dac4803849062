import { type ReactNode, useId } from 'react';
import { MarkedText } from '../MarkedText';

/**
 * The one frame every card in a turn shares (tool calls, questions, approvals, compactions, forks): a
 * header line with icon, title, summary, badges, status and time that opens and closes the body.
 */
export function CardFrame(props: {
  /** Extra classes (state modifiers) after `tool-card`. */
  className?: string;
  icon: ReactNode;
  title: ReactNode;
  /** The human one-liner; shown with hidden characters marked. */
  summary: string;
  /** The summary drawn another way (a command with its parts coloured); `summary` stays its title. */
  summaryView?: ReactNode;
  /** Badges before the status (background, server…). */
  badges?: ReactNode;
  status?: { label: string; tone: string } | null;
  elapsed?: string | null;
  expanded: boolean;
  onToggle(): void;
  /** Attributes tests and styles find the card by. */
  data?: Record<`data-${string}`, string | undefined>;
  children?: ReactNode;
}) {
  const bodyId = useId();
  const classes = ['tool-card'];
  if (props.className) classes.push(props.className);
  if (props.expanded) classes.push('tool-card--expanded');
  return (
    <div className={classes.join(' ')} {...props.data}>
      <button
        type="button"
        className="tool-card-header"
        aria-expanded={props.expanded}
        aria-controls={props.expanded ? bodyId : undefined}
        onClick={props.onToggle}
      >
        <span className="tool-card-chevron" aria-hidden="true">
          ›
        </span>
        <span className="tool-card-icon" aria-hidden="true">
          {props.icon}
        </span>
        <span className="tool-card-name">{props.title}</span>
        <span className="tool-card-summary" title={props.summary}>
          {props.summaryView ?? <MarkedText text={props.summary} />}
        </span>
        {props.badges}
        {props.status && (
          <span className={`tool-status tool-status--${props.status.tone}`}>{props.status.label}</span>
        )}
        {props.elapsed && <span className="tool-card-elapsed">{props.elapsed}</span>}
      </button>
      {props.expanded && (
        <div id={bodyId} className="tool-card-body">
          {props.children}
        </div>
      )}
    </div>
  );
}

/**
 * The frame's header line for cards that stay open (a question waiting for its answer, a group of forks):
 * the same icon, title, summary and status as a tool call's, without the toggle.
 */
export function CardHeading(props: {
  icon: ReactNode;
  /** The title element (a heading with the id the card is labelled by). */
  title: ReactNode;
  summary?: string;
  status?: { label: string; tone: string } | null;
}) {
  return (
    <div className="tool-card-header tool-card-header--static">
      <span className="tool-card-icon" aria-hidden="true">
        {props.icon}
      </span>
      {props.title}
      {props.summary ? (
        <span className="tool-card-summary" title={props.summary}>
          <MarkedText text={props.summary} />
        </span>
      ) : (
        <span className="tool-card-summary" />
      )}
      {props.status && (
        <span className={`tool-status tool-status--${props.status.tone}`}>{props.status.label}</span>
      )}
    </div>
  );
}
