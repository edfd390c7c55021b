/**
 * The control plane (hosted mode): organisations are listed, created, joined and switched on this
 * origin's backend with the browser's session, never on an organisation's backend (absolute URLs,
 * which lib/backend.ts leaves alone).
 */
import { useEffect, useRef, useState } from 'react';
import {
  invitationSentSchema,
  organizationMembersSchema,
  organizationSchema,
  organizationsSchema,
  organizationSwitchSchema,
  type CreateOrganization,
  type InvitationSent,
  type InviteMember,
  type Organization,
  type OrganizationMembers,
} from '@watchdeck/core';
import { apiGet, apiPost, apiRequest } from '#web/lib/http.ts';
import { saveBackend } from '#web/lib/backend.ts';
import { toastError } from '#web/lib/toast.ts';

const root = (path: string) => `${window.location.origin}/api/organizations${path}`;

/** Where the app lands after an organisation is chosen (seed 000 section 2). */
export const SWITCHED_PATH = '/organizations/orgs-switched';

/** How often a provisioning organisation is asked again. */
export const POLL_MS = 2000;

export const organizationsQueryKey = ['organizations', 'list'] as const;

export async function listOrganizations(signal?: AbortSignal): Promise<Organization[]> {
  return organizationsSchema.parse(await apiGet<unknown>(root(''), signal));
}

export async function createOrganization(body: CreateOrganization): Promise<Organization> {
  return organizationSchema.parse(await apiPost<unknown>(root(''), body));
}

export async function acceptInvitation(slug: string): Promise<Organization> {
  return organizationSchema.parse(await apiPost<unknown>(root(`/${encodeURIComponent(slug)}/accept`)));
}

const one = (slug: string, rest = '') => root(`/${encodeURIComponent(slug)}${rest}`);

export const membersQueryKey = (slug: string) => ['organizations', 'members', slug] as const;

/** The members and open invitations (the organisation's admins only: 403 for the others). */
export async function listMembers(slug: string, signal?: AbortSignal): Promise<OrganizationMembers> {
  return organizationMembersSchema.parse(await apiGet<unknown>(one(slug, '/members'), signal));
}

/** Invites by email: the server sends the invitation through its mail server. */
export async function inviteMember(slug: string, body: InviteMember): Promise<InvitationSent> {
  return invitationSentSchema.parse(await apiPost<unknown>(one(slug, '/invites'), body));
}

export function withdrawInvitation(slug: string, id: string): Promise<void> {
  return apiRequest<void>(one(slug, `/invites/${encodeURIComponent(id)}`), { method: 'DELETE' });
}

export function removeMember(slug: string, personId: string): Promise<void> {
  return apiRequest<void>(one(slug, `/members/${encodeURIComponent(personId)}`), { method: 'DELETE' });
}

/** Deletes the organisation: its backend, data and tokens go with it. */
export function deleteOrganization(slug: string): Promise<void> {
  return apiRequest<void>(one(slug), { method: 'DELETE' });
}

async function switchTo(slug: string) {
  return organizationSwitchSchema.parse(await apiPost<unknown>(root(`/${encodeURIComponent(slug)}/switch`)));
}

/**
 * Switching: asks for the organisation's backend and token, and while it has no backend URL yet
 * (still provisioning) asks again every POLL_MS. Once there, the choice is saved and the app
 * reloads against it at SWITCHED_PATH. A failure is reported with its message.
 */
export function useSwitchOrganization() {
  const [waiting, setWaiting] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const attempt = async (slug: string): Promise<void> => {
    try {
      const s = await switchTo(slug);
      if (s.status === 'failed') throw new Error(`The organisation ${slug} could not be provisioned.`);
      if (!s.backend_url || !s.token) {
        setWaiting(slug);
        timer.current = setTimeout(() => void attempt(slug), POLL_MS);
        return;
      }
      saveBackend({ slug: s.organization, url: s.backend_url, token: s.token });
      window.location.assign(SWITCHED_PATH);
    } catch (err) {
      setWaiting(null);
      toastError(err);
    }
  };
  return {
    /** the organisation being waited for (no backend URL yet) */
    waiting,
    switchTo: (slug: string) => {
      clearTimeout(timer.current);
      void attempt(slug);
    },
  };
}
