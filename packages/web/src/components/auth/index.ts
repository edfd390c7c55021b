export { AccessGuard, FeatureGuard, type AccessGuardProps } from './guards.tsx';
export { Unauthorized, UNAUTHORIZED_MESSAGE } from './unauthorized.tsx';
