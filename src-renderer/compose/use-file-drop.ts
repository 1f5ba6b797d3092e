import { useCallback, useEffect, useRef, useState, type ChangeEvent, type DragEvent } from 'react';

/** Only a drag that carries files is the screen's: text dragged into a prompt stays the field's. */
const carriesFiles = (e: { dataTransfer: DataTransfer | null }) =>
  Array.from(e.dataTransfer?.types ?? []).includes('Files');

/**
 * Compose as a drop zone for files, and the file dialog behind its "Add reference images…"
 * buttons: what react-dropzone did here (no click, no keyboard, a drop beside the screen kept from
 * opening the file in the page), in the browser's own events. Compose is the first screen, and
 * react-dropzone with what it brings was 16 KB of its script (issue 36); Realtime still uses it.
 * `onFiles` gets the files with the drop's event, or null for a pick in the file dialog.
 */
export function useFileDrop(onFiles: (files: File[], drop: DragEvent | null) => void, onCancel: () => void) {
  const [isDragActive, setDragActive] = useState(false);
  const root = useRef<HTMLElement | null>(null);
  const input = useRef<HTMLInputElement | null>(null);
  // dragenter and dragleave come in pairs for every child crossed: the count says when it has left.
  const depth = useRef(0);
  const latest = useRef({ onFiles, onCancel });
  latest.current = { onFiles, onCancel };

  useEffect(() => {
    // A file let go beside the screen (the sidebar) would open in the page, leaving the studio.
    const outside = (e: globalThis.DragEvent) => {
      if (carriesFiles(e) && !root.current?.contains(e.target as Node)) e.preventDefault();
    };
    document.addEventListener('dragover', outside);
    document.addEventListener('drop', outside);
    return () => {
      document.removeEventListener('dragover', outside);
      document.removeEventListener('drop', outside);
    };
  }, []);

  // The input comes and goes with the screen's draft: its cancel event (the dialog closed with
  // nothing picked, which React does not pass on for inputs) is listened to while it is there.
  const inputRef = useCallback((field: HTMLInputElement | null) => {
    input.current = field;
    if (!field) return;
    const cancelled = () => latest.current.onCancel();
    field.addEventListener('cancel', cancelled);
    return () => {
      field.removeEventListener('cancel', cancelled);
      input.current = null;
    };
  }, []);

  const getRootProps = useCallback(
    <P extends object>(props: P) => ({
      ...props,
      ref: root,
      onDragEnter: (e: DragEvent) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        depth.current++;
        setDragActive(true);
      },
      onDragOver: (e: DragEvent) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
      },
      onDragLeave: (e: DragEvent) => {
        if (!carriesFiles(e)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragActive(false);
      },
      onDrop: (e: DragEvent) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        depth.current = 0;
        setDragActive(false);
        latest.current.onFiles(Array.from(e.dataTransfer.files), e);
      },
    }),
    [],
  );

  const getInputProps = useCallback(
    () => ({
      ref: inputRef,
      type: 'file',
      multiple: true,
      onChange: (e: ChangeEvent<HTMLInputElement>) => {
        const files = Array.from(e.target.files ?? []);
        // Emptied, so that picking the same file again is a change too.
        e.target.value = '';
        if (files.length) latest.current.onFiles(files, null);
        else latest.current.onCancel();
      },
    }),
    [inputRef],
  );

  const open = useCallback(() => input.current?.click(), []);
  return { getRootProps, getInputProps, isDragActive, open };
}
