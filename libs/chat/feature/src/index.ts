export * from './chat-feature.module';
export * from './ports/chat-ledger.port';
export * from './use-cases/chat-completion/chat-pricing.util';
export * from './use-cases/chat-completion/create-chat-completion.use-case';
export * from './use-cases/chat-completion/get-chat-model.use-case';
export * from './use-cases/chat-completion/list-chat-models.use-case';
export * from './use-cases/chat-completion/stream-chat-completion.use-case';
