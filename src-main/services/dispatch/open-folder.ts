/** Desktop hosts show a folder in the file manager; browser mode cannot, and answers the path to show instead. */
export async function openFolder(
  path: string,
  openPath?: (path: string) => Promise<void>,
): Promise<{ path: string; opened: boolean }> {
  if (!openPath) return { path, opened: false };
  await openPath(path);
  return { path, opened: true };
}
