export * from './tri-state-filter.tsx';
