import { Transform } from 'class-transformer';

/** Environment values are strings: these decorators turn them into typed values before validation. */
export const ToInt = () =>
  Transform(({ value }) =>
    value === undefined || value === ''
      ? undefined
      : /^-?\d+$/.test(String(value))
        ? Number(value)
        : value,
  );

export const ToBool = () =>
  Transform(({ value }) => {
    if (value === undefined || value === '' || typeof value === 'boolean')
      return value === '' ? undefined : value;
    const v = String(value).toLowerCase();
    return v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : value;
  });

export const ToList = () =>
  Transform(({ value }) =>
    Array.isArray(value)
      ? value
      : value === undefined
        ? undefined
        : String(value)
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
  );

export const ToIntList = () =>
  Transform(({ value }) =>
    Array.isArray(value)
      ? value
      : value === undefined || value === ''
        ? undefined
        : String(value)
            .split(',')
            .map((s) => (/^\s*\d+\s*$/.test(s) ? Number(s) : s)),
  );

/** Empty strings count as unset, so `FOO=` keeps FOO's default. */
export const EmptyAsUnset = () => Transform(({ value }) => (value === '' ? undefined : value));
