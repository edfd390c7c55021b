import { CONNECTION_TYPE_DEFS, type ConnectionTypeDef } from '@watchdeck/core';
import { ConnectionIcon } from './connection-icon.tsx';

const GROUPS = ['Connections', 'Notifications', 'Incident responders', 'Other'] as const;
const CHOICES = CONNECTION_TYPE_DEFS.filter((d) => !d.hidden);

/** The type chooser of the add dialog: a grid of 5 per row (seed 002 section 2.12), by group and name. */
export function TypeChooser({ onChoose }: { onChoose: (def: ConnectionTypeDef) => void }) {
  return (
    <div className="space-y-5">
      {GROUPS.map((group) => {
        const defs = CHOICES.filter((d) => d.group === group).sort((a, b) => a.title.localeCompare(b.title));
        return (
          <section key={group} aria-label={group}>
            <h3 className="mb-2 text-xs font-semibold tracking-wide text-gray-500 uppercase">{group}</h3>
            <ul className="grid grid-cols-5 gap-2" data-testid="connection-type-grid">
              {defs.map((d) => (
                <li key={d.type}>
                  <button
                    type="button"
                    onClick={() => onChoose(d)}
                    className="flex h-20 w-full flex-col items-center justify-center gap-1.5 rounded-md border border-gray-200 bg-white px-2 text-center text-xs font-medium text-gray-700 hover:border-blue-400 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-blue-600"
                  >
                    <ConnectionIcon type={d.type} size={20} className="text-gray-500" />
                    <span className="leading-tight">{d.title}</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
