/** HTML building blocks of the built-in pages: escaping and the page shell. Every interpolated value is escaped. */
import type { Theme } from '../types/index.js'
import { scalarText } from '../security/scalar-text.js'
import type { PageLocale } from './locale.js'

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
/** A colour the page may write into CSS as it is (the theme's, a provider's `style.brandColor`); else undefined. */
export function safeColor(value: string | undefined): string | undefined {
  return value && /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,20}|rgba?\([\d\s.,%]+\))$/.test(value) ? value : undefined
}

/**
 * The dark palette, applied when the theme asks for dark or, with `auto`, when the browser prefers dark. Fields and
 * the error box get their own dark colours: a white input on a dark card is what "dark mode" must not look like.
 */
const darkPalette =
  'color-scheme: dark; --bg: #111113; --card: #1c1c1f; --text: #f2f2f4; --muted: #b0b0b6; --line: #3a3a40; ' +
  '--field: #111113; --field-border: #8e8e96; --neutral: #2a2a2f; --neutral-hover: #34343a; --focus: #8ab4ff; --error-bg: #3f1713; --error-text: #ffb4a9; ' +
  '--shadow: 0 4px 24px rgba(0, 0, 0, .5);'

/** System fonts only (nothing is fetched), with Japanese faces named so the CJK fallback is a proper Gothic face. */
const fontStack =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Hiragino Sans", ' +
  '"Noto Sans CJK JP", "Yu Gothic UI", Meiryo, "IPAGothic", sans-serif'

function styles(brand: string, buttonText: string): string {
  return `
:root { color-scheme: light; --brand: ${brand}; --button-text: ${buttonText}; --bg: #f4f4f6; --card: #fff; --text: #1d1d1f; --muted: #55555b; --line: #dcdce0; --field: #fff; --field-border: #86868c; --neutral: #fff; --neutral-hover: #f0f0f3; --focus: #1a56db; --error-bg: #fdecea; --error-text: #8a1c12; --shadow: 0 4px 24px rgba(0, 0, 0, .08); }
html[data-color-scheme="dark"] { ${darkPalette} }
@media (prefers-color-scheme: dark) { html[data-color-scheme="auto"] { ${darkPalette} } }
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; padding: 1rem; min-height: 100vh; display: flex; align-items: center; justify-content: center; font-family: ${fontStack}; font-size: 16px; line-height: 1.5; background: var(--bg); color: var(--text); }
main { width: 100%; max-width: 24rem; padding: 2rem; border-radius: 12px; background: var(--card); box-shadow: var(--shadow); overflow-wrap: anywhere; }
h1 { font-size: 1.375rem; line-height: 1.3; margin: 0 0 1rem; }
p { color: var(--muted); margin: 0 0 1rem; }
strong { color: var(--text); }
.logo { display: block; max-width: 100%; max-height: 56px; margin: 0 auto 1rem; }
form { display: flex; flex-direction: column; gap: .5rem; margin: 0; }
label { font-size: .9rem; font-weight: 700; }
input { width: 100%; min-width: 0; padding: .6rem .7rem; margin-bottom: .35rem; border: 1px solid var(--field-border); border-radius: 6px; background: var(--field); color: var(--text); font: inherit; }
input::placeholder { color: var(--muted); opacity: 1; }
button, .button { display: block; width: 100%; padding: .7rem 1rem; border: 0; border-radius: 6px; background: var(--brand); color: var(--button-text); font: inherit; font-weight: 700; line-height: 1.3; text-align: center; text-decoration: none; cursor: pointer; }
button.provider { background: var(--neutral); color: var(--text); box-shadow: inset 0 0 0 1px var(--field-border); }
button:hover, .button:hover { filter: brightness(.92); }
button.provider:hover { background: var(--neutral-hover); filter: none; }
button.provider.branded { box-shadow: inset 5px 0 0 var(--provider-brand), inset 0 0 0 1px var(--field-border); }
button.provider img { width: 20px; height: 20px; margin-right: .6rem; vertical-align: -4px; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
input:focus-visible { outline-offset: 0; border-color: var(--focus); }
.error { margin: 0 0 1rem; padding: .7rem .8rem; border-radius: 6px; background: var(--error-bg); color: var(--error-text); }
form .error { margin: .25rem 0 0; }
.passkey .error { margin: .5rem 0 0; }
.factors { list-style: none; padding: 0; margin: 0 0 1rem; }
.factors li { border-top: 1px solid var(--line); padding: .75rem 0; }
.factors li p { margin: 0 0 .5rem; }
.qr { background: #fff; padding: .5rem; border-radius: 6px; width: max-content; margin: 0 auto 1rem; }
.qr svg { display: block; }
.key, .codes { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; color: var(--text); }
.codes { columns: 2; padding-left: 1.75rem; margin: 0 0 1rem; }
a.back { color: var(--focus); }
hr { border: 0; border-top: 1px solid var(--line); margin: 1.25rem 0; }
ul.sessions { list-style: none; margin: 0 0 1rem; padding: 0; }
ul.sessions li { padding: .9rem 0; border-top: 1px solid var(--line); }
ul.sessions li:last-child { border-bottom: 1px solid var(--line); }
.device { color: var(--text); font-weight: 700; margin: 0 0 .25rem; }
.facts { font-size: .9rem; margin: 0 0 .6rem; }
ul.sessions li > :last-child { margin-bottom: 0; }
@media (max-width: 480px) { body { padding: .75rem; align-items: flex-start; } main { padding: 1.5rem 1.25rem; } }
`
}

/** What every built-in page is made of. */
export interface PageShell {
  title: string
  content: string
  locale: PageLocale
  theme?: Theme
}

/** Wraps page content in the shared document shell. */
export function renderPage({ title, content, locale, theme = {} }: PageShell): string {
  const brand = safeColor(theme.brandColor) ?? '#346df1'
  const buttonText = safeColor(theme.buttonText) ?? '#fff'
  const scheme = theme.colorScheme === 'dark' || theme.colorScheme === 'light' ? theme.colorScheme : 'auto'
  const logo = theme.logo ? `<img class="logo" src="${escapeHtml(theme.logo)}" alt="" />` : ''
  return `<!DOCTYPE html>
<html lang="${escapeHtml(locale.lang)}" data-color-scheme="${scheme}">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name="color-scheme" content="${scheme === 'auto' ? 'light dark' : scheme}" />
<title>${escapeHtml(title)}</title>
<style>${styles(brand, buttonText)}</style>
</head>
<body><main>${logo}${content}</main></body>
</html>`
}
