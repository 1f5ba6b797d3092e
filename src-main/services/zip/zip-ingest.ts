import type { ZipManifest } from '../gateway/batch-wire';

/** What a verified batch ZIP gave the library (zip-stream-ingest.ts): its images, named, and its two JSON files. */

export interface IngestedImage {
  customId: string;
  imageIndex: number;
  file: string;
  mime: string;
  bytes: number;
}

export interface IngestedZip {
  manifest: ZipManifest;
  errors: { custom_id: string; code: string; message: string }[];
  images: IngestedImage[];
}
