/**
 * A User-Agent header cut down to what a device list shows: "Firefox on Linux". A few patterns, no parser
 * dependency: the list helps a user recognise their own devices, and a header says whatever its sender wants, so
 * nothing here is ever trusted for anything else. Unknown agents show as "Unknown browser".
 */

/** Browsers, most specific first: Edge and Opera also say "Chrome", Chrome also says "Safari". */
const browsers: ReadonlyArray<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bcurl\//, 'curl'],
]

/** Systems, most specific first: Android also says "Linux", iOS also says "like Mac OS X". */
const systems: ReadonlyArray<[RegExp, string]> = [
  [/\bAndroid\b/, 'Android'],
  [/\biPhone\b|\biPad\b|\biPod\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
]

/** Longest header looked at: a real one is a few hundred characters. */
const maxLength = 512

/** "Browser on System", "Browser", or "Unknown browser"; undefined without a header. */
export function userAgentSummary(header: string | null | undefined): string | undefined {
  if (!header) return undefined
  const text = header.slice(0, maxLength)
  const browser = browsers.find(([pattern]) => pattern.test(text))?.[1]
  const system = systems.find(([pattern]) => pattern.test(text))?.[1]
  if (browser && system) return `${browser} on ${system}`
  return browser ?? (system ? `Unknown browser on ${system}` : 'Unknown browser')
}
