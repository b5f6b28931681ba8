import { useState } from 'react';

/** A secret the API shows once (an API key, a webhook secret): shown, copyable, with the warning. */
export function OnceSecret({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="secret" role="status">
      <p>
        <strong>{label}</strong> (shown once: copy it now, it cannot be read again):
      </p>
      <p>
        <code>{value}</code>
      </p>
      <button
        type="button"
        onClick={() =>
          void navigator.clipboard?.writeText(value).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {copied ? 'Copied' : `Copy ${label}`}
      </button>
    </div>
  );
}
