/** HTML building blocks of the built-in pages: escaping and the page shell. Every interpolated value is escaped. */
import type { Theme } from '../types/index.js'
import { scalarText } from '../security/scalar-text.js'

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
}

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return scalarText(value).replace(/[&<>"'`]/g, (c) => escapes[c])
}

/** A CSS colour the theme may set, or undefined when it is not a plain colour (no CSS injection through the theme). */
function safeColor(value: string | undefined): string | undefined {
  return value && /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,20}|rgba?\([\d\s.,%]+\))$/.test(value) ? value : undefined
}

/** Wraps page content in the shared document shell. */
export function renderPage(title: string, content: string, theme: Theme = {}): string {
  const brand = safeColor(theme.brandColor) ?? '#346df1'
  const buttonText = safeColor(theme.buttonText) ?? '#fff'
  const scheme = theme.colorScheme ?? 'auto'
  const logo = theme.logo ? `<img class="logo" src="${escapeHtml(theme.logo)}" alt="" />` : ''
  return `<!DOCTYPE html>
<html lang="en" data-color-scheme="${escapeHtml(scheme)}">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${escapeHtml(title)}</title>
<style>
:root { --brand: ${brand}; --button-text: ${buttonText}; --bg: #f5f5f7; --card: #fff; --text: #1d1d1f; --muted: #6e6e73; }
@media (prefers-color-scheme: dark) { html[data-color-scheme="auto"] { --bg: #111; --card: #1c1c1e; --text: #f5f5f7; --muted: #a1a1a6; } }
html[data-color-scheme="dark"] { --bg: #111; --card: #1c1c1e; --text: #f5f5f7; --muted: #a1a1a6; }
body { margin: 0; font-family: system-ui, sans-serif; background: var(--bg); color: var(--text); display: flex; min-height: 100vh; align-items: center; justify-content: center; }
main { background: var(--card); padding: 2rem; border-radius: 12px; box-shadow: 0 4px 24px rgba(0,0,0,.08); width: min(360px, 90vw); }
h1 { font-size: 1.3rem; margin: 0 0 1rem; } p { color: var(--muted); }
.logo { display: block; max-height: 56px; margin: 0 auto 1rem; }
form { display: flex; flex-direction: column; gap: .6rem; margin: 0 0 1rem; }
label { font-size: .9rem; } input { padding: .6rem; border: 1px solid #ccc; border-radius: 6px; font-size: 1rem; }
button, .button { padding: .7rem; border: 0; border-radius: 6px; background: var(--brand); color: var(--button-text); font-size: 1rem; cursor: pointer; text-decoration: none; text-align: center; }
.error { background: #fdecea; color: #8a1c12; padding: .7rem; border-radius: 6px; margin-bottom: 1rem; }
hr { border: 0; border-top: 1px solid #ddd; margin: 1rem 0; }
</style>
</head>
<body><main>${logo}${content}</main></body>
</html>`
}
