/**
 * Debian's headless Chromium as every browser test launches it (driven by playwright-core; no browser is ever
 * downloaded): one list of flags, so a flag a test run needs is added once.
 */
export const chromiumPath = '/usr/bin/chromium'

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
