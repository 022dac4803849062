// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Composer } from '../../src/components/Composer';
import { I18nProvider } from '../../src/i18n/i18n';

afterEach(() => cleanup());

describe('the composer’s Escape', () => {
  it('cancels the running turn, but not from another text box of the page', () => {
    let cancels = 0;
    render(
      <I18nProvider locale="en">
        <textarea aria-label="Elsewhere" />
        <Composer running onSend={async () => {}} onCancel={async () => void cancels++} />
      </I18nProvider>,
    );
    fireEvent.keyDown(screen.getByLabelText('Elsewhere'), { key: 'Escape' });
    expect(cancels).toBe(0);
    fireEvent.keyDown(screen.getByLabelText('Message'), { key: 'Escape' });
    expect(cancels).toBe(1);
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(cancels).toBe(2);
  });
});
