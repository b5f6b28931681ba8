export * from './billing.dto';
export * from './chat.dto';
export * from './envelope.dto';
export * from './error.dto';
export * from './file.dto';
export * from './model.dto';
export * from './task.dto';
export * from './webhook.dto';
