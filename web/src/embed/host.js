// For host pages: <insights-dashboard token="…"> and <insights-chat token="…"> (docs/embedding.md).
// Load it from the service (<script src="https://insights.example.com/embed/insights.js" defer>);
// each element frames the embedded page of its token's resource, passes the token in the URL
// fragment, and follows the height the page reports.
const SERVICE = new URL(document.currentScript.src).origin;

function claims(token) {
  try {
    const [h, p] = token.split('.');
    const read = (s) => JSON.parse(atob(s.replace(/-/g, '+').replace(/_/g, '/')));
    return { kid: read(h).kid, resource: read(p).resource };
  } catch {
    return {};
  }
}

class InsightsFrame extends HTMLElement {
  static observedAttributes = ['token', 'theme', 'accent', 'font', 'hide-title'];
  connectedCallback() {
    this.render();
  }
  attributeChangedCallback() {
    if (this.isConnected) this.render();
  }
  disconnectedCallback() {
    window.removeEventListener('message', this.onMessage);
  }

  render() {
    const token = this.getAttribute('token') ?? '';
    const { kid, resource } = claims(token);
    const path =
      typeof resource === 'string' && resource.startsWith('dashboard:')
        ? `/embed/dashboards/${encodeURIComponent(resource.slice(10))}`
        : '/embed/chat';
    const q = new URLSearchParams({ key: kid ?? '' });
    for (const [attr, name] of [
      ['theme', 'theme'],
      ['accent', 'accent'],
      ['font', 'font'],
      ['hide-title', 'hide_title'],
    ]) {
      if (this.hasAttribute(attr)) q.set(name, this.getAttribute(attr) || '1');
    }
    const frame = document.createElement('iframe');
    frame.src = `${SERVICE}${path}?${q}#token=${encodeURIComponent(token)}`;
    frame.referrerPolicy = 'no-referrer';
    frame.title = this.getAttribute('title') ?? 'Analytics';
    frame.style.cssText = 'width:100%;border:0;display:block;min-height:120px';
    this.replaceChildren(frame);
    window.removeEventListener('message', this.onMessage);
    this.onMessage = (e) => {
      if (e.origin !== SERVICE || e.source !== frame.contentWindow || e.data?.source !== 'insights-embed') return;
      if (e.data.type === 'insights:height') frame.style.height = `${e.data.height}px`;
      this.dispatchEvent(new CustomEvent(e.data.type, { detail: e.data }));
    };
    window.addEventListener('message', this.onMessage);
  }
}

if (!customElements.get('insights-dashboard')) customElements.define('insights-dashboard', class extends InsightsFrame {});
if (!customElements.get('insights-chat')) customElements.define('insights-chat', class extends InsightsFrame {});
