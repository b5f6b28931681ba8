import { getMetadataStorage } from 'class-validator';
import {
  AdminConfig,
  ChatConfig,
  DatabaseConfig,
  HttpConfig,
  LedgerAuditConfig,
  ListenConfig,
  LogConfig,
  ProvidersConfig,
  RedisConfig,
  SecurityConfig,
  ShutdownConfig,
  StorageConfig,
  StuckTaskSweepConfig,
  TaskConfig,
  TracingConfig,
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
  TracingConfig,
];

/** The config pieces each app loads (mirrors the ConfigModule.forRoot calls in apps/*). */
export const APP_PIECES: Record<string, Piece[]> = {
  gateway: [...COMMON, AdminConfig, TaskConfig, ChatConfig, ProvidersConfig],
  'task-worker': [...COMMON, TaskConfig, ProvidersConfig, StuckTaskSweepConfig],
  'webhook-dispatcher': [...COMMON, WebhookConfig],
  billing: [...COMMON, LedgerAuditConfig],
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
