import { getMetadataStorage } from 'class-validator';
import {
  type ConfigPiece,
  environmentPiecesOf,
  SERVICE_NAMES,
  type ServiceName,
} from '@genhub/service';

/** The config pieces each app reads (the apps' own list, `@genhub/service`). */
export const APP_PIECES = Object.fromEntries(
  SERVICE_NAMES.map((app) => [app, environmentPiecesOf(app)]),
) as Record<ServiceName, readonly ConfigPiece[]>;
export const APPS: readonly ServiceName[] = SERVICE_NAMES;

/** The environment variables a piece reads: its validated properties. */
export function variablesOf(piece: ConfigPiece): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(piece, '', false, false);
  return [...new Set(metadata.map((m) => m.propertyName))];
}

export function variablesOfApp(app: string): Set<string> {
  return new Set((APP_PIECES[app as ServiceName] ?? []).flatMap(variablesOf));
}

export const ALL_VARIABLES = new Set(APPS.flatMap((app) => [...variablesOfApp(app)]));
