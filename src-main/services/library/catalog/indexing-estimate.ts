/**
 * About how many images the library holds while a long sync reads its folders: the images of the
 * folders it does not read again, those read so far, and the rest at the images per byte of
 * batch.json seen so far. A folder's batch.json grows with its images (one entry each), so this
 * holds for folders of any size, where an average per folder would not (a 10-image batch next to a
 * 2,000-image one); its size comes from the folder's signature, with no file read.
 */
export class ImagesEstimate {
  private bytesLeft: number;
  private bytesRead = 0;
  private imagesRead = 0;

  /**
   * @param kept images of the folders the catalog has and this sync does not read again, and the
   *   size of their batch.json files (a build resumed after a restart goes by them at once)
   * @param batchBytes the batch.json size of each folder to read
   */
  constructor(
    private kept: { images: number; batchBytes: number },
    batchBytes: number[],
  ) {
    this.bytesLeft = batchBytes.reduce((sum, b) => sum + b, 0);
  }

  /** One folder read: its batch.json's size, and the images it holds. */
  read(batchBytes: number, images: number): void {
    this.bytesLeft -= batchBytes;
    this.bytesRead += batchBytes;
    this.imagesRead += images;
  }

  /** The estimate; undefined until some folder with images is known (nothing to go by yet). */
  get imagesAbout(): number | undefined {
    const [images, bytes] = this.imagesRead
      ? [this.imagesRead, this.bytesRead]
      : [this.kept.images, this.kept.batchBytes];
    if (!images || !bytes) return undefined;
    const rest = Math.max(0, this.bytesLeft) * (images / bytes);
    return Math.round(this.kept.images + this.imagesRead + rest);
  }
}

/** A folder signature's batch.json part (`mtime:size|…`, or `-` when missing) as [mtime, size]. */
export function batchFileStamp(signature: string): [number, number] {
  const [mtime, size] = (signature.split('|')[0] ?? '-').split(':').map(Number);
  return [mtime ?? 0, size ?? 0].map((n) => (Number.isFinite(n) ? n : 0)) as [number, number];
}
