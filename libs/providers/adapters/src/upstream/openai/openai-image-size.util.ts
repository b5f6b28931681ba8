/**
 * OpenAI image sizes per model family: gpt-image-* knows 1024², 1536×1024,
 * 1024×1536; dall-e-3 1024², 1792×1024, 1024×1792; dall-e-2 squares only.
 */
export function openAiImageSize(model: string, aspectRatio = '1:1', resolution = '1024'): string {
  const shape =
    aspectRatio === '16:9' || aspectRatio === '4:3'
      ? 'landscape'
      : aspectRatio === '1:1'
        ? 'square'
        : 'portrait';
  if (model.startsWith('dall-e-2')) return resolution === '512' ? '512x512' : '1024x1024';
  const long = model.startsWith('dall-e-3') ? 1792 : 1536;
  if (shape === 'landscape') return `${long}x1024`;
  if (shape === 'portrait') return `1024x${long}`;
  return '1024x1024';
}
