export { ResourceForm, isManagedElsewhere, type ResourceFormProps } from './resource-form.tsx';
export {
  SCHEDULE_OPTIONS,
  rowName,
  type DetailTab,
  type SettingsFormField,
  type SettingsResourceConfig,
  type SettingsRow,
} from './types.ts';
export { NO_RESOURCES_MESSAGE, createdMessage, deletedMessage, updatedMessage } from './messages.ts';
export {
  settingsItemKey,
  settingsListKey,
  useSettingsMutations,
  type SettingsPayload,
} from './use-settings-mutations.ts';
