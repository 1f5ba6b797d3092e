import { AppearanceSelects } from './AppearanceSelects';
import { BudgetMeter } from './BudgetMeter';
import { ConnectionIndicator } from './ConnectionIndicator';

/** Always within reach: the connection, the month's spending against the budget, the language and the theme. */
export function TopBar() {
  return (
    <header className="topbar">
      <ConnectionIndicator />
      <div className="topbar-controls">
        <BudgetMeter />
        <AppearanceSelects className="inline-field" testIds />
      </div>
    </header>
  );
}
