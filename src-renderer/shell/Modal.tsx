import { useEffect, useId, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** What Tab can reach inside the dialog, in order; hidden elements (no boxes) are left out. */
function tabbables(root: HTMLElement): HTMLElement[] {
  // A control taken out of the tab order (tabindex -1, as the loupe's filmstrip) is no end of the cycle.
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.tabIndex >= 0 && el.getClientRects().length > 0,
  );
}

/**
 * The one modal of the studio, on the native `<dialog>`: `showModal()` puts it in the top layer and
 * makes the rest of the page inert; Tab and Shift+Tab cycle inside it (the browser alone would let
 * focus leave for its own toolbar); Escape closes it through the `cancel` event; and focus goes back
 * to the element that opened it.
 *
 * `title` gives it a visible heading that names it; `label` names it without one (a lightbox).
 * `initialFocus`: 'first' focuses an element marked `data-autofocus`, else the first field or
 * button; 'dialog' focuses the dialog itself, for dialogs driven by keys rather than fields.
 */
export function Modal({
  title,
  label,
  onClose,
  className = 'dialog card',
  initialFocus = 'first',
  onKeyDown,
  testId,
  children,
}: {
  title?: string;
  label?: string;
  onClose(): void;
  className?: string;
  initialFocus?: 'first' | 'dialog';
  onKeyDown?(e: KeyboardEvent<HTMLDialogElement>): void;
  testId?: string;
  children: ReactNode;
}) {
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);
  // The newest onClose, for the native listeners that are attached once.
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  }, [onClose]);

  useLayoutEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement as HTMLElement | null;
    if (!dialog.open) dialog.showModal();
    if (initialFocus === 'dialog') dialog.focus();
    else
      (
        dialog.querySelector<HTMLElement>('[data-autofocus]') ??
        dialog.querySelector<HTMLElement>('input, select, textarea, button') ??
        dialog
      ).focus();
    let closing = false;
    // Escape: the app decides (it unmounts the dialog), the browser does not close it on its own.
    const onCancel = (e: Event) => {
      e.preventDefault();
      close.current();
    };
    // Closed some other way (a browser may skip `cancel` on a repeated Escape): still tell the app.
    const onNativeClose = () => {
      if (!closing) close.current();
    };
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('close', onNativeClose);
    return () => {
      closing = true;
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('close', onNativeClose);
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, [initialFocus]);

  const trapTab = (e: KeyboardEvent<HTMLDialogElement>) => {
    onKeyDown?.(e);
    if (e.key !== 'Tab' || e.defaultPrevented) return;
    const dialog = ref.current!;
    const all = tabbables(dialog);
    const first = all[0];
    const last = all[all.length - 1];
    const active = document.activeElement;
    if (!first || !last) {
      e.preventDefault();
      dialog.focus();
    } else if (e.shiftKey && (active === first || !dialog.contains(active) || active === dialog)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (active === last || !dialog.contains(active) || active === dialog)) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      className={`modal ${className}`}
      aria-labelledby={title ? `${id}-title` : undefined}
      aria-label={title ? undefined : label}
      tabIndex={-1}
      onKeyDown={trapTab}
      data-testid={testId}
    >
      {title && <h2 id={`${id}-title`}>{title}</h2>}
      {children}
    </dialog>
  );
}
