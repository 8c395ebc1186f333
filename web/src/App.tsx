// The shell: sign-in when there is no session, else the header with navigation and the page of
// the current path. Focus moves to the page heading on navigation, so screen readers hear the page.
import { useEffect, useState } from 'preact/hooks';
import { setUnauthorizedHandler, storeToken, storedToken } from './api.ts';
import { Link, match, navigate, usePath } from './router.tsx';
import { SessionContext, restoreSession, saveSession, signIn, type Session } from './session.ts';
import { SignIn } from './pages/SignIn.tsx';
import { DashboardList, landingPath } from './pages/DashboardList.tsx';
import { DashboardPage } from './pages/DashboardPage.tsx';
import { ChatPage } from './pages/ChatPage.tsx';
import { ExplorePage } from './pages/ExplorePage.tsx';
import { InsightsPage } from './pages/InsightsPage.tsx';
import { NotificationsPage } from './pages/NotificationsPage.tsx';
import { SettingsPage } from './pages/SettingsPage.tsx';
import { ThemePicker } from './theme.tsx';

const NAV = [
  ['/dashboards', 'Dashboards'],
  ['/chat', 'Chat'],
  ['/insights', 'Insights'],
  ['/explore', 'Explore'],
  ['/notifications', 'Notifications'],
  ['/settings', 'Settings'],
] as const;

function Page({ path }: { path: string }) {
  let p: Record<string, string> | null;
  if ((p = match('/dashboards/:id', path))) return <DashboardPage id={p.id} />;
  if (match('/dashboards', path)) return <DashboardList />;
  if (match('/chat', path)) return <ChatPage />;
  if ((p = match('/insights/:code', path))) return <InsightsPage code={p.code} />;
  if (match('/insights', path)) return <InsightsPage />;
  if (match('/explore', path)) return <ExplorePage />;
  if (match('/notifications', path)) return <NotificationsPage />;
  if (match('/settings', path)) return <SettingsPage />;
  return (
    <section>
      <h1 tabIndex={-1}>Page not found</h1>
      <p>
        There is no page at <code>{path}</code>. <Link href="/dashboards">Go to the dashboards</Link>.
      </p>
    </section>
  );
}

export function App() {
  const path = usePath();
  // A reload keeps the session of the tab without asking the service again: the page's first
  // API call proves the token (a 401 ends the session).
  const [session, setSession] = useState<Session | null>(restoreSession);
  const [restoring, setRestoring] = useState(() => session === null && storedToken() !== null);
  const [notice, setNotice] = useState<string>();

  const signOut = (message?: string) => {
    storeToken(null);
    saveSession(null);
    setSession(null);
    setNotice(message);
  };

  useEffect(() => {
    setUnauthorizedHandler(() => signOut('Your session has ended: the service no longer accepts this token. Sign in again.'));
    const token = storedToken();
    if (!token || session) return;
    signIn(token)
      .then((s) => {
        saveSession(s);
        setSession(s);
      })
      .catch(() => signOut('Your session has ended. Sign in again.'))
      .finally(() => setRestoring(false));
  }, []);

  useEffect(() => {
    // Signing in lands on the starter dashboard ("Start here") when the user has it, else the list.
    if (session && (path === '/' || path === '/sign-in')) void landingPath().then((p) => navigate(p, true));
  }, [session, path]);

  // After navigation, the new page's heading takes focus (and the title follows it), unless the
  // user is already in the page's content. The heading may come only when the page's data does.
  useEffect(() => {
    if (!session) return;
    let tries = 0;
    const t = setInterval(() => {
      const h = document.querySelector<HTMLElement>('main h1');
      if (!h && ++tries < 60) return;
      clearInterval(t);
      if (!h) return;
      document.title = `${h.textContent} · Insights`;
      const active = document.activeElement;
      const elsewhere = !active || active === document.body || !active.isConnected || active.closest('header.top') !== null;
      if (elsewhere) h.focus({ preventScroll: true });
    }, 50);
    return () => clearInterval(t);
  }, [path, session]);

  if (restoring)
    return (
      <p class="loading" role="status">
        Signing in…
      </p>
    );
  if (!session)
    return (
      <SignIn
        notice={notice}
        onSignedIn={(s) => {
          storeToken(s.token);
          saveSession(s);
          setNotice(undefined);
          setSession(s);
        }}
      />
    );

  return (
    <SessionContext.Provider value={session}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <Link href="/dashboards" class="brand" aria-label="Insights home">
          <span aria-hidden="true" class="logo" />
          Insights
        </Link>
        <nav aria-label="Main">
          <ul>
            {NAV.map(([href, label]) => (
              <li key={href}>
                <Link href={href} aria-current={path === href || path.startsWith(href + '/') ? 'page' : undefined}>
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span data-testid="who">
            {session.userName || session.userId || 'Signed in'} · <span class="role">{session.role}</span>
            {session.tenantId ? <> · {session.tenantId}</> : null}
          </span>
          <ThemePicker />
          <button type="button" class="link" onClick={() => signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">
        <Page path={path} />
      </main>
    </SessionContext.Provider>
  );
}
