export { AccessGuard, FeatureGuard } from './guards.tsx';
