/** The underline tab style of Radix Tabs triggers used across screens. */
export const tabClass =
  '-mb-px border-b-2 border-transparent px-3 py-1.5 text-sm font-medium text-gray-500 hover:text-gray-800 data-[state=active]:border-blue-600 data-[state=active]:text-blue-700';
