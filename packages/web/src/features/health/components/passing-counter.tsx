/** The header's passing/failing counter over the checks the filters select. */
export function PassingCounter({ passing, failing }: { passing: number; failing: number }) {
  return (
    <div
      className="inline-flex h-9 items-center gap-3 rounded-md border border-gray-200 bg-white px-3 text-sm shadow-sm"
      data-testid="passing-failing-counter"
      aria-label={`${passing} passing, ${failing} failing`}
    >
      <span className="inline-flex items-center gap-1.5 text-green-700">
        <span className="h-2 w-2 rounded-full bg-green-500" aria-hidden />
        <span data-testid="passing-count" className="font-semibold">
          {passing}
        </span>
        passing
      </span>
      <span className="inline-flex items-center gap-1.5 text-red-700">
        <span className="h-2 w-2 rounded-full bg-red-500" aria-hidden />
        <span data-testid="failing-count" className="font-semibold">
          {failing}
        </span>
        failing
      </span>
    </div>
  );
}
