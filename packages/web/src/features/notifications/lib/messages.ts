/**
 * Notification messages. The confirmation title and the empty/error texts are seed 002 section
 * 8; the success toasts follow the seeds' '{name} updated successfully' pattern.
 */
export const NOTIFICATION_MESSAGES = {
  ruleCreated: 'Notification rule created successfully',
  ruleUpdated: 'Notification rule updated successfully',
  ruleDeleted: 'Notification rule deleted successfully',
  silenceCreated: 'Notification silence created successfully',
  silenceUpdated: 'Notification silence updated successfully',
  silenceDeleted: 'Notification silence deleted successfully',
  deleteSilenceTitle: 'Delete Notification Silence',
  deleteRuleTitle: 'Delete Notification Rule',
  /** seed 002 section 8 "Empty states" */
  noResources: 'No resources found',
} as const;
