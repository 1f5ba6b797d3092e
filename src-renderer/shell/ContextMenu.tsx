import { useEffect, useRef, useState } from 'react';
import { useStudio } from '../app/studio-context';
import { useStudioQuery } from '../app/studio-queries';
import { ActionMenu, type MenuItem } from './ActionMenu';

interface ContextMenuProps {
  items: MenuItem[];
  at: { x: number; y: number };
  label: string;
  onClose(): void;
  testId?: string;
}

/**
 * A right-click menu: on the desktop the OS draws it (main's `dialog.contextMenu`), as every other
 * app's right click looks; in browser mode, or if main cannot, the page draws its own ActionMenu.
 * The labels and actions stay here; main only hears the labels and answers the id chosen.
 */
export function ContextMenu(props: ContextMenuProps) {
  const studio = useStudio();
  const info = useStudioQuery('app.info', {}, { staleTime: Infinity });
  const desktop = info.data?.host === 'desktop';
  const [drawHere, setDrawHere] = useState(false);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    if (!desktop) return;
    let live = true;
    const { items, at } = latest.current;
    studio
      .call('dialog.contextMenu', {
        items: items.slice(0, 40).map((i) => ({ id: i.id, label: i.label, enabled: !i.disabled })),
        x: Math.max(0, Math.round(at.x)),
        y: Math.max(0, Math.round(at.y)),
      })
      .then(({ native, chosen }) => {
        if (!live) return;
        if (!native) return setDrawHere(true);
        const { items: now, onClose } = latest.current;
        onClose();
        now.find((i) => i.id === chosen && !i.disabled)?.onSelect();
      })
      .catch(() => live && setDrawHere(true));
    return () => {
      live = false;
    };
  }, [desktop, studio]);

  if (!info.data || (desktop && !drawHere)) return null;
  return <ActionMenu {...props} />;
}
