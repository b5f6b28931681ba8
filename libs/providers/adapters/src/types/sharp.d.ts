// sharp 0.35's package.json "exports" has no "types" condition, so TypeScript
// (moduleResolution nodenext) cannot find lib/index.d.ts. The little of it we use:
declare module 'sharp' {
  interface SharpInstance {
    png(options?: { compressionLevel?: number }): SharpInstance;
    toBuffer(): Promise<Buffer>;
    metadata(): Promise<{ format?: string; width?: number; height?: number }>;
  }
  function sharp(
    input?: Buffer,
    options?: { raw?: { width: number; height: number; channels: 1 | 2 | 3 | 4 } },
  ): SharpInstance;
  export default sharp;
}
