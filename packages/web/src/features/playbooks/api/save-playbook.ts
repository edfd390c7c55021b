import { useMutation, useQueryClient } from '@tanstack/react-query';
import { db, unwrap } from '#web/lib/api.ts';

export interface PlaybookInput {
  title: string;
  /** the parsed spec; its description, category and icon fill the columns */
  spec: Record<string, unknown>;
}

/** A name for a new playbook: its title in lowercase with dashes (dns1123-like, unique by namespace). */
const nameFromTitle = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63) || 'playbook';

const columns = ({ title, spec }: PlaybookInput) => {
  const str = (k: string) => (typeof spec[k] === 'string' ? (spec[k] as string) : null);
  return {
    title,
    spec: { ...spec, title },
    description: str('description'),
    category: str('category'),
    icon: str('icon'),
  };
};

/**
 * Create (POST /api/db/playbooks, source UI) or update (PATCH by id) a playbook spec. The server
 * validates the spec with the published schema and refuses an edit of a synced playbook.
 */
export function useSavePlaybook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...input }: PlaybookInput & { id?: string }) => {
      if (id) {
        unwrap(await db.from('playbooks').update(columns(input)).eq('id', id).select('id'));
      } else {
        unwrap(
          await db
            .from('playbooks')
            .insert({ ...columns(input), name: nameFromTitle(input.title), source: 'UI' })
            .select('id'),
        );
      }
    },
    onSettled: () => qc.invalidateQueries({ queryKey: ['playbooks'] }),
  });
}
