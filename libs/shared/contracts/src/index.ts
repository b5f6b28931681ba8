// Browser entry of the contracts lib: generated types, friendly aliases, the
// typed client and the error catalogue. No server code (lint enforces it; the
// bundle test proves it). DTO classes live in `@genhub/contracts/server`.
export * from '@genhub/errors';
export * from './types';
export * from './account.constants';
export * from './api-key.constants';
export * from './task-status.constants';
export * from './client/genhub.client';
export * from './client/task-events.client';
export * from './client/chat.client';
export * from './client/media-upload.client';
export * from './client/api-keys.client';
