function escape(term: string): string {
  return term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * CONTENT_BLOCKLIST: a prompt containing one of the terms as a whole word
 * (case-insensitive, Unicode-aware word boundaries) is refused. Built once.
 */
export class ContentScreen {
  private readonly pattern?: RegExp;

  constructor(terms: string[]) {
    const cleaned = terms.map((t) => t.trim()).filter(Boolean);
    if (cleaned.length)
      this.pattern = new RegExp(
        `(?<![\\p{L}\\p{N}_])(?:${cleaned.map(escape).join('|')})(?![\\p{L}\\p{N}_])`,
        'iu',
      );
  }

  blocks(text: unknown): boolean {
    return !!this.pattern && typeof text === 'string' && this.pattern.test(text);
  }
}
