import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useStudio } from '../app/studio-context';

/**
 * Spending moves when money moves (`costs.changed`), and the budget when a profile is saved: the
 * figures are asked again then, never on a timer.
 */
export function useSpendingFreshness(): void {
  const studio = useStudio();
  const client = useQueryClient();
  useEffect(() => {
    const again = (...methods: string[]) => {
      for (const method of methods) void client.invalidateQueries({ queryKey: [method] });
    };
    const offs = [
      // Compose's budget check reads the same month and the latest per-image figures.
      studio.on('costs.changed', () => again('batches.spending', 'batches.budget', 'batches.budgetCheck')),
      studio.on('profiles.changed', () => again('batches.budget', 'batches.budgetCheck')),
    ];
    return () => offs.forEach((off) => off());
  }, [studio, client]);
}
