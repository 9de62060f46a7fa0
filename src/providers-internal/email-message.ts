/**
 * The sign-in message every built-in e-mail provider sends: an HTML and a plain-text body. The host and the URL are
 * escaped wherever they appear (a host carrying a quote cannot leave the `href` attribute), the host is broken with
 * zero-width spaces so mail clients do not turn it into a link of their own, and the theme's colours are used when
 * they are plain colours.
 */
import type { Theme } from '../types/index.js'

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => escapes[c])
}

function plainColor(value: string | undefined, fallback: string): string {
  return value && /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,20})$/.test(value) ? value : fallback
}

/** The host as text no mail client recognises as a link: a zero-width space before each dot. */
function unlinkableHost(host: string): string {
  return escapeHtml(host).replace(/\./g, '&#8203;.')
}

/** The subject line. */
export function signInSubject(url: string): string {
  return `Sign in to ${new URL(url).host}`
}

/** The HTML body: one button with the link, the host shown but not linkable. */
export function signInHtml(params: { url: string; theme?: Theme }): string {
  const { url, theme = {} } = params
  const host = unlinkableHost(new URL(url).host)
  const brand = plainColor(theme.brandColor, '#346df1')
  const buttonText = plainColor(theme.buttonText, '#ffffff')
  const dark = theme.colorScheme === 'dark'
  const background = dark ? '#111111' : '#f9f9f9'
  const card = dark ? '#1c1c1e' : '#ffffff'
  const text = dark ? '#f5f5f7' : '#444444'
  const href = escapeHtml(url)
  return `<body style="background: ${background}; margin: 0; padding: 20px;">
<table width="100%" border="0" cellspacing="20" cellpadding="0" style="background: ${card}; max-width: 600px; margin: auto; border-radius: 10px;">
<tr><td align="center" style="padding: 10px 0; font-size: 22px; font-family: Helvetica, Arial, sans-serif; color: ${text};">Sign in to <strong>${host}</strong></td></tr>
<tr><td align="center" style="padding: 20px 0;"><table border="0" cellspacing="0" cellpadding="0"><tr>
<td align="center" style="border-radius: 5px;" bgcolor="${brand}"><a href="${href}" target="_blank" style="font-size: 18px; font-family: Helvetica, Arial, sans-serif; color: ${buttonText}; text-decoration: none; border-radius: 5px; padding: 10px 20px; border: 1px solid ${brand}; display: inline-block; font-weight: bold;">Sign in</a></td>
</tr></table></td></tr>
<tr><td align="center" style="padding: 0 0 10px 0; font-size: 16px; line-height: 22px; font-family: Helvetica, Arial, sans-serif; color: ${text};">If you did not ask for this message, you can ignore it.</td></tr>
</table>
</body>`
}

/** The plain-text body: the link on a line of its own. */
export function signInText(params: { url: string }): string {
  return `Sign in to ${new URL(params.url).host}\n${params.url}\n\nIf you did not ask for this message, you can ignore it.\n`
}
