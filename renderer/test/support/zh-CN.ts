import { loadLocale } from '../../src/i18n/i18n';

// The app fetches the zh-CN strings when that locale is chosen (a chunk of their own). A test that renders in
// Chinese imports this module so they are here before it renders, and it can assert at once.
await loadLocale('zh-CN');
