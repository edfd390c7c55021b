/** Seed 002 section 9: the card sizes and their widths in pixels. */
export const CARD_SIZES = ['small', 'medium', 'large', 'extra_large'] as const;
export type CardSize = (typeof CARD_SIZES)[number];
export const CARD_WIDTHS: Record<CardSize, number> = { small: 198, medium: 258, large: 356, extra_large: 554 };

/** Seed 002 section 5: the card width slider. */
export const CARD_WIDTH_MIN = 250;
export const CARD_WIDTH_MAX = 768;
export const CARD_WIDTH_STEP = 2;
/** A preset when nothing is stored: the medium card. */
export const DEFAULT_CARD_WIDTH = CARD_WIDTHS.medium;

/** Local storage keys of seed 002 section 9 (under the app's storage prefix). */
export const STORAGE_KEYS = {
  cardWidth: 'topology_card_width',
  sortByStandard: 'topologyCardsSortByStandard',
  sortByCustom: 'topologyCardsSortByCustom',
  sortOrder: 'topologyCardsSortOrder',
  showHidden: 'topologyShowHidden',
} as const;

/** Seed 002 section 9: side lists show 10 items (5 when the properties panel is empty); properties 6. */
export const SIDE_LIST_SIZE = 10;
export const SIDE_LIST_SIZE_NO_PROPERTIES = 5;
export const PROPERTY_LIST_SIZE = 6;

/** Seed 002 section 9: resource usage above this share of its max shows red. */
export const USAGE_RED_ABOVE = 0.7;

export const EMPTY_MESSAGE = 'There are no components matching this criteria';
export const NOT_FOUND_MESSAGE = 'Component not found';
export const MULTIPLE_MESSAGE = 'Response has multiple components for the id.';
export const SNAPSHOT_ERROR = 'Error downloading file';
export const LINK_SUCCESS = 'config link successful';
export const UNLINK_SUCCESS = 'Deleted config link successfully';

/** The filter's first choice: no filter ('All' is dropped by the API too). */
export const ALL = 'All';

/**
 * Cards rendered at first, then more as the end of the grid scrolls into view (500 root cards);
 * also the first page the listing is asked for (api/topology.ts; index.html writes it as 60).
 */
export const CARD_PAGE = 60;

/** The snapshot form's time ranges (a duration the snapshot endpoint reads as "since"). */
export const SNAPSHOT_RANGES = [
  { value: '1h', label: 'Last 1 hour' },
  { value: '3h', label: 'Last 3 hours' },
  { value: '6h', label: 'Last 6 hours' },
  { value: '12h', label: 'Last 12 hours' },
  { value: '1d', label: 'Last 1 day' },
  { value: '2d', label: 'Last 2 days' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
] as const;
