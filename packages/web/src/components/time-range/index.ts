export * from './time-range.ts';
export { TimeRangePicker, UrlTimeRangePicker } from './time-range-picker.tsx';
export { useTimeRangeParams } from './use-time-range-params.ts';
