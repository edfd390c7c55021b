import { Bell, UserRound, Users } from 'lucide-react';
import type { RuleRow } from '../api/types.ts';

/** Whom a rule notifies: a person, a team, or a custom service (its connection's name). */
export function Recipient({ rule }: { rule: Pick<RuleRow, 'person' | 'team' | 'custom_services'> }) {
  const service = rule.custom_services?.[0];
  const [Icon, text] = rule.person
    ? [UserRound, rule.person.name ?? rule.person.email ?? rule.person.id]
    : rule.team
      ? [Users, rule.team.name]
      : service
        ? [Bell, service.name ?? service.connection ?? service.url ?? 'Custom service']
        : [null, null];
  if (!Icon) return <span className="text-gray-400">—</span>;
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap text-gray-800">
      <Icon size={14} className="shrink-0 text-gray-500" aria-hidden />
      {text}
    </span>
  );
}
