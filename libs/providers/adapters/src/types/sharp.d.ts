// sharp 0.35's package.json "exports" has no "types" condition, so TypeScript
// (moduleResolution nodenext) cannot find lib/index.d.ts. The little of it we use:
declare module 'sharp' {
  interface RawInfo {
    width: number;
    height: number;
    channels: 1 | 2 | 3 | 4;
    /** Height of one frame of an animation stacked vertically. */
    pageHeight?: number;
  }
  interface Metadata {
    format?: string;
    width?: number;
    height?: number;
    pages?: number;
    pageHeight?: number;
    delay?: number[];
    loop?: number;
  }
  interface AnimationOptions {
    loop?: number;
    delay?: number | number[];
  }
  interface SharpInstance {
    png(options?: { compressionLevel?: number }): SharpInstance;
    jpeg(options?: { quality?: number }): SharpInstance;
    webp(options?: AnimationOptions & { quality?: number; effort?: number }): SharpInstance;
    gif(
      options?: AnimationOptions & { effort?: number; keepDuplicateFrames?: boolean },
    ): SharpInstance;
    rotate(): SharpInstance;
    removeAlpha(): SharpInstance;
    extract(region: { left: number; top: number; width: number; height: number }): SharpInstance;
    resize(
      width: number,
      height: number,
      options?: { fit?: 'cover' | 'fill' | 'contain'; kernel?: string },
    ): SharpInstance;
    raw(): SharpInstance;
    toBuffer(): Promise<Buffer>;
    toBuffer(options: { resolveWithObject: true }): Promise<{ data: Buffer; info: RawInfo }>;
    metadata(): Promise<Metadata>;
  }
  function sharp(
    input?: Buffer,
    options?: { raw?: RawInfo; animated?: boolean; page?: number; limitInputPixels?: number },
  ): SharpInstance;
  export default sharp;
}
