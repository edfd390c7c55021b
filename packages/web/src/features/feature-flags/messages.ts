/** The feature flag messages of seed 002 section 8. */
export const FEATURE_FLAG_MESSAGES = {
  added: 'Feature flag added successfully',
  updated: 'Feature flag updated successfully',
  removed: 'Feature flag removed successfully',
  local: 'Cannot edit local feature flags',
  incomplete: 'please provide all details',
} as const;
