import { waitFor } from '@testing-library/react';
import './lazy-bodies';

/**
 * An approval's answers load when one first waits (a lazy part, see lazy-parts.ts): waits until a card's
 * answers have replaced their placeholder row.
 */
export async function answersShown(): Promise<void> {
  await waitFor(() => {
    if (document.querySelector('.question-card-actions--loading')) {
      throw new Error("An approval's answers are still loading");
    }
    if (!document.querySelector('.question-card-actions')) throw new Error('No approval answers on screen');
  });
}
