export * from './entities';
export * from './events';
export * from './requests';
export * from './responses';
export * from './ws';
