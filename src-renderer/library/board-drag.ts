/** The drag type of library cells: a JSON list of image ids, read by the boards' drop targets. */
export const LIBRARY_IDS_MIME = 'application/x-studio-library-ids';

/** The ids a drop carries, or none when it is not a drag of library cells. */
export function droppedIds(e: React.DragEvent): string[] {
  try {
    const ids: unknown = JSON.parse(e.dataTransfer.getData(LIBRARY_IDS_MIME) || '[]');
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** Whether a drag over a board is one of library cells (its data is readable only on drop). */
export function carriesLibraryIds(e: React.DragEvent): boolean {
  return e.dataTransfer.types.includes(LIBRARY_IDS_MIME);
}
