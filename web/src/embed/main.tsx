// The embedded pages (/embed/dashboards/{id}, /embed/chat): the app's own widget components and
// chart option builder without its navigation (docs/embedding.md). This entry is a chunk of its own;
// ECharts comes in the chunk the app loads too (lazy.ts), asked for at once, while the page waits
// for its first API answers, so the first chart is drawn soon after its data arrives.
import { render } from 'preact';
import '../styles.css';
import './embed.css';
import '../fonts.ts';
import { loadCharts } from '../lazy.ts';
import { EmbeddedChat } from './EmbeddedChat.tsx';
import { EmbeddedDashboard } from './EmbeddedDashboard.tsx';
import { applyHostTheme, otherKey, post, token } from './frame.ts';

const { hideTitle } = applyHostTheme();
const main = document.querySelector('main')!;

// The host sizes the frame to its content: report the height whenever it changes.
new ResizeObserver(() => post({ type: 'insights:height', height: Math.ceil(document.documentElement.scrollHeight) })).observe(
  document.body,
);

const dashboard = /^\/embed\/dashboards\/([^/]+)$/.exec(location.pathname);
if (!token) render(<p class="error">{'No embed token: open this page as /embed/…#token=<embed token>.'}</p>, main);
else if (otherKey) render(<p class="error">The page's ?key= is not the key of its embed token.</p>, main);
else if (dashboard) {
  void loadCharts();
  render(<EmbeddedDashboard id={decodeURIComponent(dashboard[1])} hideTitle={hideTitle} />, main);
} else render(<EmbeddedChat />, main);
