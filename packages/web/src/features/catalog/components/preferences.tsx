import * as Popover from '@radix-ui/react-popover';
import { SlidersHorizontal } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { Toggle } from './toggle.tsx';

/** The catalog's preferences control: 'Hide Deleted Catalog' (stored locally, default yes). */
export function PreferencesControl({
  label,
  hideDeleted,
  onHideDeletedChange,
}: {
  label: string;
  hideDeleted: boolean;
  onHideDeletedChange: (v: boolean) => void;
}) {
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
          className="z-50 rounded-md border border-gray-200 bg-white p-3 shadow-lg"
        >
          <Toggle label={label} checked={hideDeleted} onChange={onHideDeletedChange} />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
