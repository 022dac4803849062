export * from './entities';
export * from './events';
export * from './host';
export * from './kernel-events';
export * from './kernels';
export * from './requests';
export * from './responses';
export * from './ws';
