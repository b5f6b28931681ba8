import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const dataDir = path.join(root, '.data');
export const APPS = ['gateway', 'task-worker', 'webhook-dispatcher', 'billing'];
export const entry = (app, file = 'main') =>
  path.join(root, 'dist', app, 'apps', app, 'src', `${file}.js`);
/** The web console's static build (apps/console), served by the gateway at /console. */
export const consoleDir = path.join(root, 'dist', 'console');
