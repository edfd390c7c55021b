import type { NOTIFICATION_CONNECTION_TYPES } from '@watchdeck/core';
import { discord, googleChat, matrix, mattermost, rocketchat, slack, teams, telegram, zulip } from './chat.ts';
import { email, genericWebhook, ifttt, ntfy, opsgenie, pushbullet, pushover } from './push.ts';
import type { Sender } from './types.ts';

export { SendError } from './http.ts';
export { plain } from './markup.ts';
export type { Message, Sender } from './types.ts';

/** One sender per notification connection type of seed 002 section 3. */
const SENDERS: Record<(typeof NOTIFICATION_CONNECTION_TYPES)[number], Sender> = {
  discord,
  email,
  google_chat: googleChat,
  ifttt,
  mattermost,
  matrix,
  ntfy,
  opsgenie,
  pushbullet,
  pushover,
  rocketchat,
  slack,
  teams,
  telegram,
  zulip_chat: zulip,
  generic_webhook: genericWebhook,
};

export const senderFor = (type: string): Sender | undefined => (SENDERS as Record<string, Sender>)[type];
