import type { FormField } from './schema-form.util';

interface Props {
  fields: readonly FormField[];
  values: Record<string, string>;
  errors: Record<string, string | undefined>;
  onChange(name: string, value: string): void;
  /** A file chosen for a media URL field: upload it, then fill the field with its address. */
  onFile(name: string, file: File): void;
  /** The media fields whose file is being uploaded. */
  uploading: ReadonlySet<string>;
}

/** The generated form: one labelled control per field, its limits as attributes, its error beside it. */
export function SchemaForm({ fields, values, errors, onChange, onFile, uploading }: Props) {
  return (
    <div className="fields">
      {fields.map((field) => {
        const id = `field-${field.name}`;
        const error = errors[field.name];
        const common = {
          id,
          name: field.name,
          required: field.required,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? `${id}-error` : field.description ? `${id}-help` : undefined,
        };
        const value = values[field.name] ?? '';
        return (
          <div className="field" key={field.name}>
            <label htmlFor={id}>
              {field.label}
              {field.required && <span aria-hidden="true"> *</span>}
            </label>
            {field.control === 'select' ? (
              <select
                {...common}
                value={value}
                onChange={(e) => onChange(field.name, e.target.value)}
              >
                {!field.required && <option value="">(default)</option>}
                {field.options?.map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            ) : field.control === 'textarea' ? (
              <textarea
                {...common}
                rows={3}
                maxLength={field.maxLength}
                value={value}
                onChange={(e) => onChange(field.name, e.target.value)}
              />
            ) : field.control === 'checkbox' ? (
              <input
                {...common}
                type="checkbox"
                checked={value === 'true'}
                onChange={(e) => onChange(field.name, String(e.target.checked))}
              />
            ) : (
              <input
                {...common}
                type={
                  field.control === 'integer' || field.control === 'number'
                    ? 'number'
                    : field.control === 'file-url'
                      ? 'url'
                      : 'text'
                }
                step={field.control === 'integer' ? 1 : undefined}
                min={field.min}
                max={field.max}
                maxLength={field.maxLength}
                placeholder={field.defaultValue}
                value={value}
                onChange={(e) => onChange(field.name, e.target.value)}
              />
            )}
            {field.control === 'file-url' && (
              <label className="upload">
                Or upload a file for {field.label}
                <input
                  type="file"
                  disabled={uploading.has(field.name)}
                  onChange={(e) => {
                    const file = e.target.files?.[0];
                    if (file) onFile(field.name, file);
                    e.target.value = '';
                  }}
                />
                {uploading.has(field.name) && <span aria-live="polite"> Uploading…</span>}
              </label>
            )}
            {field.description && !error && <small id={`${id}-help`}>{field.description}</small>}
            {error && (
              <small id={`${id}-error`} className="error">
                {error}
              </small>
            )}
          </div>
        );
      })}
    </div>
  );
}
