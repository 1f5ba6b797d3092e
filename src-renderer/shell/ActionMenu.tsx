import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Dismissible } from './Dismissible';
import './action-menu.css';

export interface MenuItem {
  id: string;
  label: string;
  onSelect(): void;
  disabled?: boolean;
  testId?: string;
}

/**
 * A menu of actions at a point on screen (under its button, or where the right click was): the
 * keyboard moves through it with the arrows, Enter chooses, Escape or a click elsewhere closes it
 * and gives the focus back. Kept inside the window at its edges.
 */
export function ActionMenu({
  items,
  at,
  label,
  onClose,
  testId,
}: {
  items: MenuItem[];
  at: { x: number; y: number };
  label: string;
  onClose(): void;
  testId?: string;
}) {
  const menu = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState(at);
  const close = useRef(onClose);
  close.current = onClose;

  useLayoutEffect(() => {
    const el = menu.current;
    if (!el) return;
    const { width, height } = el.getBoundingClientRect();
    setPlace({
      x: Math.max(4, Math.min(at.x, window.innerWidth - width - 4)),
      y: Math.max(4, Math.min(at.y, window.innerHeight - height - 4)),
    });
    el.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
  }, [at]);

  // Read while drawing the menu the first time, before it takes the focus: where the focus goes back.
  const restore = useRef(document.activeElement as HTMLElement | null);
  useEffect(() => {
    const before = restore.current;
    return () => before?.focus?.();
  }, []);

  const onKeyDown = (e: React.KeyboardEvent) => {
    const buttons = [...(menu.current?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    // Escape and a click elsewhere are Dismissible's; Tab leaves the menu, so it closes too.
    if (e.key === 'Tab') close.current();
    else if (e.key === 'ArrowDown') buttons[(at + 1) % buttons.length]?.focus();
    else if (e.key === 'ArrowUp') buttons[(at - 1 + buttons.length) % buttons.length]?.focus();
    else if (e.key === 'Home') buttons[0]?.focus();
    else if (e.key === 'End') buttons[buttons.length - 1]?.focus();
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <Dismissible
      ref={menu}
      onDismiss={() => close.current()}
      role="menu"
      aria-label={label}
      className="action-menu"
      style={{ left: place.x, top: place.y }}
      onKeyDown={onKeyDown}
      data-testid={testId}
    >
      {items.map((item) => (
        <button
          key={item.id}
          type="button"
          role="menuitem"
          disabled={item.disabled}
          data-testid={item.testId}
          onClick={() => {
            // The focus goes back to where the menu came from before the action runs, so a dialog
            // the action opens returns the focus there when it closes.
            restore.current?.focus?.();
            close.current();
            item.onSelect();
          }}
        >
          {item.label}
        </button>
      ))}
    </Dismissible>
  );
}

/** A button that opens its menu of actions below it: the overflow of a toolbar. */
export function MenuButton({ label, items, testId }: { label: string; items: MenuItem[]; testId?: string }) {
  const button = useRef<HTMLButtonElement>(null);
  const [at, setAt] = useState<{ x: number; y: number }>();
  return (
    <>
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={at !== undefined}
        data-testid={testId}
        onClick={() => {
          if (at) return setAt(undefined);
          const r = button.current!.getBoundingClientRect();
          setAt({ x: r.left, y: r.bottom + 2 });
        }}
      >
        {label} ▾
      </button>
      {at && <ActionMenu items={items} at={at} label={label} onClose={() => setAt(undefined)} />}
    </>
  );
}
