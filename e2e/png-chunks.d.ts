declare module 'png-chunks-extract' {
  export default function extract(data: Uint8Array): { name: string; data: Uint8Array }[];
}
