import {
  Activity,
  Boxes,
  Cloud,
  FileCode2,
  GitBranch,
  Network,
  Radar,
  ScrollText,
  type LucideIcon,
} from 'lucide-react';
import type { IntegrationTable } from '../types.ts';

/** The Flanksource chart repository the GitOps bundles are published in. */
export const HELM_REPO_NAME = 'flanksource';
export const HELM_REPO_URL = 'https://flanksource.github.io/charts';

/** Seed 002 section 9: GitOps defaults. */
export const GITOPS_DEFAULT_NAMESPACE = 'mission-control';
export const GITOPS_DEFAULT_INTERVAL = '30m';

export interface GitOpsOption {
  name: string;
  icon: LucideIcon;
  /** the Helm chart that installs the bundle */
  chart: string;
  /** chart metadata (Chart.yaml) and values schema, fetched from the public registry */
  chartYamlUrl: string;
  schemaUrl: string;
}

const REGISTRY = 'https://raw.githubusercontent.com/flanksource/mission-control-registry/main/charts';
const bundle = (name: string, icon: LucideIcon, dir: string): GitOpsOption => ({
  name,
  icon,
  chart: `mission-control-${dir}`,
  chartYamlUrl: `${REGISTRY}/${dir}/Chart.yaml`,
  schemaUrl: `${REGISTRY}/${dir}/values.schema.json`,
});

/** Group 'Add via GitOps' (seed 002 section 2.9), in the seed's order. */
export const GITOPS_OPTIONS: readonly GitOpsOption[] = [
  bundle('AWS', Cloud, 'aws'),
  bundle('Azure', Cloud, 'azure'),
  bundle('Prometheus', Activity, 'prometheus'),
  bundle('Flux', GitBranch, 'flux'),
  bundle('Kubernetes', Boxes, 'kubernetes'),
  {
    name: 'Mission Control',
    icon: Radar,
    chart: 'mission-control',
    chartYamlUrl: 'https://raw.githubusercontent.com/flanksource/mission-control-chart/main/chart/Chart.yaml',
    schemaUrl: 'https://raw.githubusercontent.com/flanksource/mission-control-chart/main/chart/values.schema.json',
  },
];

export interface DirectOption {
  name: string;
  icon: LucideIcon;
  table: IntegrationTable;
  /** hidden when this feature is disabled */
  feature?: string;
}

/** Group 'Add Directly': Log Backends is hidden when the logs feature is disabled. */
export const DIRECT_OPTIONS: readonly DirectOption[] = [
  { name: 'Custom Topology', icon: Network, table: 'topologies' },
  { name: 'Catalog Scraper', icon: FileCode2, table: 'config_scrapers' },
  { name: 'Log Backends', icon: ScrollText, table: 'logging_backends', feature: 'logs' },
];
