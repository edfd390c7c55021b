/** The catalog's compact filter controls (selects and the search box), sized by the caller. */
export const FIELD_CLASS =
  'h-8 rounded-md border border-gray-300 bg-white px-2 text-sm text-gray-900 shadow-sm focus:border-blue-500 focus:ring-1 focus:ring-blue-500 focus:outline-none';
