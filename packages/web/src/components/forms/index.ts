export * from './form-field.tsx';
export * from './value-source-field.tsx';
