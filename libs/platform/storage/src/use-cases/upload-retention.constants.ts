/** Uploads expire 7 days after they were written (or, for a direct upload, ticketed). */
export const UPLOAD_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
