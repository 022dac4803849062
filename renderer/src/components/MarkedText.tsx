import { Fragment } from 'react';
import { splitInvisible } from './invisible-chars';

/** Text as it is, but every invisible character drawn as its marker (the text itself is not changed). */
export function MarkedText({ text }: { text: string }) {
  return (
    <>
      {splitInvisible(text).map((piece, i) =>
        piece.kind === 'text' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text, always in the same order
          <Fragment key={i}>{piece.text}</Fragment>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <span key={i} className="invisible-char">
            {piece.label}
          </span>
        ),
      )}
    </>
  );
}
