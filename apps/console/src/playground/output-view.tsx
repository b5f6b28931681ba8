/** What an output URL holds, by its extension (the gateway stores outputs as `<n>.<ext>`). */
export function outputKind(url: string): 'image' | 'audio' | 'video' | 'text' | 'file' {
  const extension = new URL(url).pathname.split('.').pop()?.toLowerCase() ?? '';
  if (['png', 'jpg', 'jpeg', 'webp', 'gif'].includes(extension)) return 'image';
  if (['mp3', 'wav', 'flac', 'ogg', 'm4a', 'aac'].includes(extension)) return 'audio';
  if (['mp4', 'webm', 'mov'].includes(extension)) return 'video';
  if (['txt', 'json', 'srt', 'vtt'].includes(extension)) return 'text';
  return 'file';
}

/** One output shown as what it is, with its download link. */
export function OutputView({ url, index }: { url: string; index: number }) {
  const kind = outputKind(url);
  const label = `Output ${index + 1}`;
  return (
    <figure className="output">
      {kind === 'image' && <img src={url} alt={label} />}
      {kind === 'audio' && <audio src={url} controls aria-label={label} />}
      {kind === 'video' && <video src={url} controls aria-label={label} />}
      {kind === 'text' && <iframe src={url} title={label} />}
      <figcaption>
        <a href={url} download target="_blank" rel="noreferrer">
          Download {label.toLowerCase()} ({kind})
        </a>
      </figcaption>
    </figure>
  );
}
