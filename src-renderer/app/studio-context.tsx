import { createContext, useContext } from 'react';
import type { StudioApi } from '../../src-shared/studio-api';

export const StudioContext = createContext<StudioApi | null>(null);

export function useStudio(): StudioApi {
  const studio = useContext(StudioContext);
  if (!studio) throw new Error('useStudio needs a StudioContext provider');
  return studio;
}
