import { Connectors } from '../components/Connectors.tsx';
import { EmbedKeys } from '../components/EmbedKeys.tsx';
import { Tokens } from '../components/Tokens.tsx';
import { isManager, useSession } from '../session.ts';

export function SettingsPage() {
  const session = useSession();
  return (
    <section>
      <h1 tabIndex={-1}>Settings</h1>
      <Connectors />
      {isManager(session) && <Tokens />}
      {isManager(session) && <EmbedKeys />}
    </section>
  );
}
