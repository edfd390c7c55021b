export { ResourceForm } from './resource-form.tsx';
export {
  rowName,
  type DetailTab,
  type SettingsFormField,
  type SettingsResourceConfig,
  type SettingsRow,
} from './types.ts';
export { NO_RESOURCES_MESSAGE } from './messages.ts';
export { settingsItemKey, settingsListKey } from './use-settings-mutations.ts';
