/**
 * Notification bodies are written in Markdown (`**bold**`, `[text](url)`, line breaks): the
 * dialect Discord, Mattermost, Rocket.Chat, Zulip, Teams and ntfy render. The others get it
 * turned into what they render: Slack's mrkdwn, HTML (Telegram, Matrix, Pushover), or plain text.
 */
const BOLD = /\*\*([^*\n]+)\*\*/g;
const LINK = /\[([^\]\n]+)\]\((https?:\/\/[^)\s]+)\)/g;

export function slackMrkdwn(md: string): string {
  return md
    .replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!)
    .replace(LINK, (_m, text: string, url: string) => `<${url}|${text}>`)
    .replace(BOLD, '*$1*');
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Telegram's HTML subset (b, a) is also what Matrix and Pushover accept; lines stay lines. */
export function html(md: string, lineBreak = '<br>'): string {
  return escapeHtml(md)
    .replace(LINK, (_m, text: string, url: string) => `<a href="${url}">${text}</a>`)
    .replace(BOLD, '<b>$1</b>')
    .replace(/\n/g, lineBreak);
}

export function plain(md: string): string {
  return md.replace(LINK, '$1 ($2)').replace(BOLD, '$1');
}
