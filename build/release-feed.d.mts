export interface ListedFile {
  url: string;
  sha512: string;
  size: number;
  blockMapSize?: number;
}
export declare function listedFiles(yml: string): ListedFile[];
export declare function collectFeed(
  dist: string,
  feed: string,
  options?: { limitMB?: number },
): Promise<{ name: string; bytes: number }[]>;
