/**
 * Money is an integer number of micro-units (1e-6 of the account's currency)
 * everywhere in storage and arithmetic; it becomes a JSON number only at the
 * interface. The simulator's 0.001 per task is 1000 micro-units.
 */
export const MICROS_PER_UNIT = 1_000_000;

/** The account currencies (docs/interface.md, "Balance object"), stated once. */
export const CURRENCIES = ['USD', 'CNY'] as const;
export type Currency = (typeof CURRENCIES)[number];
/** A new account's currency when none is given (the admin API and CLI). */
export const DEFAULT_CURRENCY: Currency = 'USD';

const SYMBOLS: Record<Currency, string> = { USD: '$', CNY: '¥' };

export function currencySymbol(currency: Currency): string {
  return SYMBOLS[currency];
}

/** Interface number → micro-units; rejects more than 6 decimals and unsafe sizes. */
export function toMicros(amount: number): number {
  if (!Number.isFinite(amount)) throw new RangeError('amount must be a finite number');
  const micros = Math.round(amount * MICROS_PER_UNIT);
  if (!Number.isSafeInteger(micros)) throw new RangeError('amount is too large');
  if (Math.abs(micros / MICROS_PER_UNIT - amount) > 1e-9)
    throw new RangeError('amount has more than 6 decimals');
  return micros;
}

/** Micro-units → the interface's number (exact for every value we store). */
export function fromMicros(micros: number): number {
  return micros / MICROS_PER_UNIT;
}

/** Three decimals, as in the 402 message (`$X.XXX`); rounds half away from zero on the integer. */
export function formatAmount(micros: number, decimals = 3): string {
  const scale = 10 ** (6 - decimals);
  const rounded = Math.round(Math.abs(micros) / scale);
  const whole = Math.floor(rounded / 10 ** decimals);
  const frac = String(rounded % 10 ** decimals).padStart(decimals, '0');
  return `${micros < 0 ? '-' : ''}${whole}.${frac}`;
}
