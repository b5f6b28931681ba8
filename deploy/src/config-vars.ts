import { getMetadataStorage } from 'class-validator';
import {
  AdminConfig,
  DatabaseConfig,
  HttpConfig,
  ListenConfig,
  LogConfig,
  RedisConfig,
  SecurityConfig,
  ShutdownConfig,
  StorageConfig,
  TaskConfig,
  WebhookConfig,
} from '@genhub/config';

type Piece = new () => object;

const COMMON: Piece[] = [
  HttpConfig,
  ListenConfig,
  LogConfig,
  ShutdownConfig,
  DatabaseConfig,
  RedisConfig,
  StorageConfig,
  SecurityConfig,
];

/** The config pieces each app loads (mirrors the ConfigModule.forRoot calls in apps/*). */
export const APP_PIECES: Record<string, Piece[]> = {
  gateway: [...COMMON, AdminConfig, TaskConfig],
  'task-worker': [...COMMON, TaskConfig],
  'webhook-dispatcher': [...COMMON, WebhookConfig],
  billing: COMMON,
};
export const APPS = Object.keys(APP_PIECES);

/** The environment variables a piece reads: its validated properties. */
export function variablesOf(piece: Piece): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(piece, '', false, false);
  return [...new Set(metadata.map((m) => m.propertyName))];
}

export function variablesOfApp(app: string): Set<string> {
  return new Set(APP_PIECES[app].flatMap(variablesOf));
}

export const ALL_VARIABLES = new Set(APPS.flatMap((app) => [...variablesOfApp(app)]));
