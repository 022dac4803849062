import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Root } from './components/Root';
import { I18nProvider } from './i18n/i18n';
import './styles/base.css';
import './styles/conversation.css';
import './styles/approval.css';
import './styles/settings.css';
import './styles/backend.css';
import './styles/kernel.css';
import './styles/mcp.css';
import './styles/context.css';
import './styles/background.css';
import './styles/forks.css';
import './styles/sessions.css';
import './styles/changes.css';
import './styles/tool-cards.css';
import './styles/file-cards.css';
import './styles/code-card.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nProvider>
      <Root />
    </I18nProvider>
  </StrictMode>,
);
