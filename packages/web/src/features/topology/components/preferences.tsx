import { useId } from 'react';
import * as Popover from '@radix-ui/react-popover';
import * as Switch from '@radix-ui/react-switch';
import { SlidersHorizontal } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { cn } from '#web/lib/cn.ts';
import { CARD_WIDTH_MAX, CARD_WIDTH_MIN, CARD_WIDTH_STEP } from '../lib/constants.ts';

/** The preferences menu: show hidden components, and the card width slider (250 to 768, step 2). */
export function PreferencesMenu({
  showHidden,
  onShowHiddenChange,
  cardWidth,
  onCardWidthChange,
}: {
  showHidden: boolean;
  onShowHiddenChange: (v: boolean) => void;
  cardWidth: number;
  onCardWidthChange: (v: number) => void;
}) {
  const switchId = useId();
  const sliderId = useId();
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <Button variant="ghost" size="icon" aria-label="Preferences">
          <SlidersHorizontal size={15} aria-hidden />
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={4}
          aria-label="Preferences"
          className="z-50 w-64 space-y-4 rounded-md border border-gray-200 bg-white p-3 shadow-lg"
        >
          <span className="flex items-center gap-2">
            <Switch.Root
              id={switchId}
              checked={showHidden}
              onCheckedChange={onShowHiddenChange}
              className={cn(
                'relative h-5 w-9 shrink-0 rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-blue-600',
                showHidden ? 'bg-blue-600' : 'bg-gray-300',
              )}
            >
              <Switch.Thumb className="block h-4 w-4 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[18px]" />
            </Switch.Root>
            <label htmlFor={switchId} className="text-sm text-gray-700">
              Show hidden components
            </label>
          </span>
          <div className="space-y-1">
            <label htmlFor={sliderId} className="flex justify-between text-sm text-gray-700">
              Card width <span className="text-gray-500">{cardWidth}px</span>
            </label>
            <input
              id={sliderId}
              type="range"
              min={CARD_WIDTH_MIN}
              max={CARD_WIDTH_MAX}
              step={CARD_WIDTH_STEP}
              value={cardWidth}
              onChange={(e) => onCardWidthChange(Number(e.target.value))}
              className="w-full accent-blue-600"
            />
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
