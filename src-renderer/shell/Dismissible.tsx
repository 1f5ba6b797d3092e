import { useEffect, useRef, type ComponentProps, type RefObject } from 'react';

/** How something laid over the page was put away: the focus goes back only after Escape. */
export type Dismissal = 'escape' | 'outside';

/**
 * An area with something laid over the page (a menu, a popover and its toggle) that a pointer
 * press outside it or Escape inside it puts away, while `open`. The press is caught on the way
 * down, so a handler that stops it elsewhere cannot keep the area open; Escape is taken here, so
 * it closes this and not a dialog further up. Other keys go to `onKeyDown`.
 */
export function Dismissible({
  open = true,
  onDismiss,
  onKeyDown,
  ref,
  ...div
}: Omit<ComponentProps<'div'>, 'ref'> & {
  open?: boolean;
  onDismiss(how: Dismissal): void;
  ref?: RefObject<HTMLDivElement | null>;
}) {
  const own = useRef<HTMLDivElement>(null);
  const area = ref ?? own;
  // The newest onDismiss, for the listener attached while open.
  const dismiss = useRef(onDismiss);
  dismiss.current = onDismiss;

  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (!area.current?.contains(e.target as Node)) dismiss.current('outside');
    };
    document.addEventListener('pointerdown', outside, true);
    return () => document.removeEventListener('pointerdown', outside, true);
  }, [open, area]);

  return (
    <div
      ref={area}
      onKeyDown={(e) => {
        if (open && e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          dismiss.current('escape');
        } else onKeyDown?.(e);
      }}
      {...div}
    />
  );
}
