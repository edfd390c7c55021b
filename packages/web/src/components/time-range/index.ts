export * from './time-range.ts';
export { TimeRangePicker, UrlTimeRangePicker, type TimeRangePickerProps } from './time-range-picker.tsx';
export { useTimeRangeParams } from './use-time-range-params.ts';
