/** Query keys of the notification screens: a save invalidates its list and the counters. */
export const notificationKeys = {
  all: ['notifications'] as const,
  history: ['notifications', 'history'] as const,
  rules: ['notifications', 'rules'] as const,
  silences: ['notifications', 'silences'] as const,
};
