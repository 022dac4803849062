import { memo, useCallback, useMemo } from 'react';
import type { CairnClient } from '../../../sidecar/src/client';
import type { AnswerQuestionRequest } from '../../../sidecar/src/protocol';
import type { SessionController } from '../state/session-controller';
import type { TurnView } from '../state/turn-view';
import { TurnBlock } from './TurnBlock';

/**
 * One turn of the transcript, with its callbacks made here from stable parts: a streamed delta renders
 * the turn it changed and no other, and a keystroke in the composer renders none.
 */
export const TurnRow = memo(function TurnRow(props: {
  view: TurnView;
  client: CairnClient;
  controller: SessionController | null;
  onOpenSettings(): void;
  onViewVersion(number: number): void;
  onOpenSession?(id: string): void;
  /** Absent: branching is not offered. */
  branchFrom?(turnId: string): void;
  /** Absent in a read-only session; true while a turn runs. */
  revertDisabled?: boolean;
  revertedOrdinal?: number;
}) {
  const { controller, branchFrom, revertDisabled } = props;
  const turnId = props.view.turn.id;
  const onAnswer = useCallback(
    async (id: string, answer: AnswerQuestionRequest) => controller?.answer(id, answer),
    [controller],
  );
  const onRetry = useCallback(() => void controller?.retry(turnId), [controller, turnId]);
  const onBranch = useMemo(() => (branchFrom ? () => branchFrom(turnId) : undefined), [branchFrom, turnId]);
  const revert = useMemo(
    () => (revertDisabled === undefined ? undefined : { disabled: revertDisabled }),
    [revertDisabled],
  );
  return (
    <TurnBlock
      view={props.view}
      client={props.client}
      onAnswer={onAnswer}
      onRetry={onRetry}
      onOpenSettings={props.onOpenSettings}
      onViewVersion={props.onViewVersion}
      onOpenSession={props.onOpenSession}
      onBranch={onBranch}
      revert={revert}
      revertedOrdinal={props.revertedOrdinal}
    />
  );
});
