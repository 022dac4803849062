// @vitest-environment happy-dom
import '../support/zh-CN';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { McpAttachmentView } from '../../src/components/tool-cards/McpAttachmentView';
import { I18nProvider } from '../../src/i18n/i18n';

afterEach(cleanup);

it("names an MCP item's kind in the UI language, not the protocol's English word", () => {
  render(
    <I18nProvider locale="zh-CN">
      <McpAttachmentView
        attachment={{
          type: 'resource',
          uri: 'file:///tmp/a.txt',
          mimeType: 'text/plain',
          text: 'hi',
          data: null,
        }}
        index={0}
      />
      <McpAttachmentView attachment={{ type: 'audio', mimeType: 'audio/wav', data: 'AAAA' }} index={1} />
    </I18nProvider>,
  );
  expect(screen.getByText('资源').className).toBe('tool-card-badge');
  expect(screen.getByText('音频').className).toBe('tool-card-badge');
  expect(screen.queryByText('resource')).toBeNull();
});
