/// <reference types="node" />
// The server entry runs on Node; the lib build compiles without ambient Node types (browser entry).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

let cached: string | undefined;

/**
 * The checked-in OpenAPI document (`libs/shared/contracts/openapi.json`), as
 * text. Found beside the sources in the workspace and in an app build
 * (`dist/<app>/libs/shared/contracts/openapi.json`), and at the root of the
 * published package.
 */
export function readOpenApiDocumentText(): string {
  if (cached === undefined) {
    const candidates = [
      path.join(__dirname, '../../openapi.json'),
      path.join(__dirname, '../openapi.json'),
    ];
    const file = candidates.find((candidate) => existsSync(candidate));
    if (!file) throw new Error(`openapi.json not found (looked in ${candidates.join(', ')})`);
    cached = readFileSync(file, 'utf8');
  }
  return cached;
}
