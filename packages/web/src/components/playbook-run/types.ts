/** A playbook parameter (seed 000 section 3). Values travel as strings (seed 000 section 5). */
export interface PlaybookParam {
  name: string;
  label?: string;
  type?: 'code' | 'checkbox' | 'list' | 'team' | 'people' | 'component' | 'config' | 'check' | 'text' | string;
  required?: boolean;
  default?: unknown;
  description?: string;
  properties?: {
    size?: 'very-small' | 'small' | 'medium' | 'large' | 'full';
    language?: 'yaml' | 'json' | string;
    jsonSchemaUrl?: string;
    options?: (string | { label?: string; value: string })[];
    filter?: Record<string, unknown>;
    multiline?: string | boolean;
    maxLength?: number | string;
    minLength?: number | string;
    regex?: string;
    format?: 'bytes' | 'millicores' | 'dns1123' | string;
    min?: number | string;
    max?: number | string;
  };
}

/** The resource a playbook runs against: exactly one of the three ids. */
export interface PlaybookResource {
  check_id?: string;
  config_id?: string;
  component_id?: string;
}

/** A playbook as the dropdown and dialog need it. */
export interface PlaybookSummary {
  id: string;
  name: string;
  title?: string | null;
  icon?: string | null;
  category?: string | null;
  description?: string | null;
  spec?: {
    configs?: unknown[];
    components?: unknown[];
    checks?: unknown[];
    parameters?: PlaybookParam[];
  } | null;
}
