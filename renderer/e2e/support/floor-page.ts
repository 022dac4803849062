// The bench's floor: what opening a session costs with no app at all. A page with no framework and a few
// lines of script makes the first screen's requests to the same server (the session list; on a click, the
// newest page of turns) and writes each turn's prompt and answer as text. The app's first render is read
// against it: what is left above it is the app's own cost (its script, its state, its rendering).

/** The page's script (no imports, no validation): the token from the fragment, as the app takes it. */
const SCRIPT = `
const token = new URLSearchParams(location.hash.slice(1)).get('token');
const headers = { Authorization: 'Bearer ' + token };
const get = async (path) => (await fetch(path, { headers })).json();
const nav = document.querySelector('nav');
const main = document.querySelector('main');
for (const session of (await get('/api/sessions')).sessions) {
  const button = document.createElement('button');
  button.textContent = session.title;
  button.onclick = async () => {
    const page = await get('/api/sessions/' + encodeURIComponent(session.id) + '/turns?limit=30');
    main.replaceChildren();
    for (const turn of page.turns) {
      const prompt = document.createElement('p');
      prompt.textContent = turn.prompt;
      main.append(prompt);
      for (const message of turn.messages) {
        if (message.role !== 'assistant') continue;
        for (const block of message.content) {
          if (block.type !== 'text') continue;
          const answer = document.createElement('p');
          answer.textContent = block.text;
          main.append(answer);
        }
      }
    }
    main.lastElementChild?.scrollIntoView();
  };
  nav.append(button);
}
`;

export const FLOOR_PAGE_PATH = '/bench-floor.html';

/** The floor page's HTML; the bench serves it (Playwright's route) at FLOOR_PAGE_PATH of the server. */
export const FLOOR_PAGE_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>floor</title></head>
<body><nav></nav><main></main><script type="module">${SCRIPT}</script></body></html>`;
