import { AppearanceSelects } from './AppearanceSelects';
import { ConnectionIndicator } from './ConnectionIndicator';

/** Always within reach: the connection, the language and the theme. */
export function TopBar() {
  return (
    <header className="topbar">
      <ConnectionIndicator />
      <div className="topbar-controls">
        <AppearanceSelects className="inline-field" testIds />
      </div>
    </header>
  );
}
