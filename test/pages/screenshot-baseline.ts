/**
 * Screenshot baselines: each screenshot is compared with the PNG stored in test/pages/screenshots/. A baseline is
 * written only when UPDATE_SCREENSHOTS=1 and not under CI=true; a missing one fails the test (so CI can never pass
 * by writing its own). A failed comparison leaves the actual image and a diff in test-artifacts/pages/.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import pixelmatch from 'pixelmatch'
import { PNG } from 'pngjs'

export const baselineDir = fileURLToPath(new URL('./screenshots/', import.meta.url))
const artifactDir = fileURLToPath(new URL('../../test-artifacts/pages/', import.meta.url))

/** Whether this run (re)writes baselines instead of comparing. */
export const updatingBaselines = process.env.UPDATE_SCREENSHOTS === '1' && process.env.CI !== 'true'

/**
 * Per-pixel colour distance (pixelmatch's `threshold`, 0–1) under which two pixels count as equal, and the share of
 * the page's content box (its card) that may still differ. pixelmatch already leaves anti-aliased edge pixels out of
 * the count, so font smoothing differences cost little; the share is kept small on purpose: one changed word on
 * the smallest page ("Sign out" → "Log out" on the sign-out card) changes 277 pixels, 0.4% of its card, and
 * pages-browser.test.ts proves that such a change is caught.
 */
export const pixelThreshold = 0.1
export const allowedDiffShare = 0.002

export interface Comparison {
  written: boolean
  differentPixels: number
  allowedPixels: number
}

/** Encodes again at the highest compression: the baselines live in the repository. */
function compact(png: Buffer): Buffer {
  const image = PNG.sync.read(png)
  return PNG.sync.write(image, { deflateLevel: 9, deflateStrategy: 1, filterType: -1 })
}

/**
 * Compares `png` with the baseline `name`.png. `contentArea` is the number of pixels the page's content (its card)
 * covers: the tolerance is a share of it, not of the mostly empty background. `comparesOnly`: a second rendering
 * that must look like a baseline another test writes; it never writes one itself. `keepFailures: false`: a failure
 * the caller expects, so nothing is left in test-artifacts/.
 */
export function compareWithBaseline(
  name: string,
  png: Buffer,
  contentArea: number,
  { comparesOnly = false, keepFailures = true }: { comparesOnly?: boolean; keepFailures?: boolean } = {},
): Comparison {
  const file = `${baselineDir}${name}.png`
  const allowedPixels = Math.floor(contentArea * allowedDiffShare)
  if (updatingBaselines && !comparesOnly) {
    mkdirSync(baselineDir, { recursive: true })
    writeFileSync(file, compact(png))
    return { written: true, differentPixels: 0, allowedPixels }
  }
  if (!existsSync(file)) {
    throw new Error(
      `no baseline screenshot ${name}.png in test/pages/screenshots/: run UPDATE_SCREENSHOTS=1 npx vitest run test/pages/ (outside CI), look at the image, commit it`,
    )
  }
  const expected = PNG.sync.read(readFileSync(file))
  const actual = PNG.sync.read(png)
  const keep = (diff?: PNG) => {
    mkdirSync(artifactDir, { recursive: true })
    writeFileSync(`${artifactDir}${name}.actual.png`, png)
    if (diff) writeFileSync(`${artifactDir}${name}.diff.png`, PNG.sync.write(diff))
  }
  if (expected.width !== actual.width || expected.height !== actual.height) {
    keep()
    throw new Error(
      `${name}: the page is ${actual.width}×${actual.height}, the baseline ${expected.width}×${expected.height} (actual in test-artifacts/pages/)`,
    )
  }
  const diff = new PNG({ width: actual.width, height: actual.height })
  const differentPixels = pixelmatch(expected.data, actual.data, diff.data, actual.width, actual.height, {
    threshold: pixelThreshold,
  })
  if (differentPixels > allowedPixels && keepFailures) keep(diff)
  return { written: false, differentPixels, allowedPixels }
}
