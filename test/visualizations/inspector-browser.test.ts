/**
 * Opens the inspector that `authchart diagram --format html` writes in a real headless Chromium (Debian's
 * /usr/bin/chromium; no browser is downloaded) and checks that every machine renders. The screenshot is kept in
 * test-artifacts/flow-inspector.png. Without Chromium the test is skipped with a reason, except under CI=true.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { machineRegistry } from '../../machines/index.js'
import { describeEntry } from '../../visualizations/describe-machine.js'

const chromiumPath = '/usr/bin/chromium'
const inCI = process.env.CI === 'true'
const canRun = existsSync(chromiumPath) || inCI
if (!canRun)
  console.log(
    `[inspector-browser] ${chromiumPath} not found: skipping the Chromium check (apt-get install chromium; under CI=true this fails instead)`,
  )

const artifacts = resolve('test-artifacts')
const outDir = resolve(artifacts, 'diagrams')

interface Box {
  x: number
  y: number
  width: number
  height: number
}
const overlaps = (p: Box, q: Box): boolean =>
  p.x < q.x + q.width - 0.5 && q.x < p.x + p.width - 0.5 && p.y < q.y + q.height - 0.5 && q.y < p.y + p.height - 0.5

describe('authchart diagram --format html, opened in Chromium', () => {
  let browser: Browser | undefined
  afterAll(async () => {
    await browser?.close()
  })

  it.runIf(canRun)(
    'renders every machine, with nothing fetched from the network, and keeps a screenshot',
    async () => {
      // The command a user types: `npx authchart diagram --format html` runs bin/authchart.js.
      const run = spawnSync(process.execPath, ['bin/authchart.js', 'diagram', '--format', 'html', '--out', outDir], {
        encoding: 'utf8',
      })
      const file = resolve(outDir, 'flow-inspector.html')
      expect(run.stderr).toBe('')
      expect(run.status).toBe(0)
      expect(run.stdout.trim()).toBe(`wrote ${file}`)

      browser = await chromium.launch({
        executablePath: chromiumPath,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
          '--disable-quic',
        ],
      })
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
      const requests: string[] = []
      const problems: string[] = []
      page.on('request', (r) => requests.push(r.url()))
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`)
      })
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
      await page.goto(pathToFileURL(file).href)
      // Taken before any click, so the artifact shows the page as a reader first sees it.
      mkdirSync(artifacts, { recursive: true })
      const shot = resolve(artifacts, 'flow-inspector.png')
      await page.screenshot({ path: shot, fullPage: true })
      expect(readFileSync(shot).subarray(1, 4).toString('latin1')).toBe('PNG')

      const graphs = Object.values(machineRegistry).map(describeEntry)
      for (const graph of graphs) {
        const section = page.locator(`section.machine[data-machine="${graph.machineId}"]`)
        await expect.poll(() => section.count()).toBe(1)
        const svg = section.locator('svg.chart')
        expect(await svg.isVisible()).toBe(true)
        const states = svg.locator('g.state')
        expect(await states.count()).toBe(graph.states.length)
        const boxes: Box[] = []
        for (const state of graph.states) {
          const box = await svg.locator(`g.state[data-state="${state.path}"] > rect`).first().boundingBox()
          expect(box, `${graph.machineId}.${state.path} is drawn`).not.toBeNull()
          expect(box!.width).toBeGreaterThan(20)
          boxes.push(box!)
          expect(await svg.locator(`g.state[data-state="${state.path}"] .state-name`).textContent()).toBe(
            state.path.split('.').join(' › '),
          )
        }
        const labels = await svg.locator('rect.label-bg').evaluateAll((rects) =>
          rects.map((r) => {
            const b = r.getBoundingClientRect()
            return { x: b.x, y: b.y, width: b.width, height: b.height }
          }),
        )
        expect(labels).toHaveLength(graph.transitions.reduce((n, t) => n + Math.max(1, t.targets.length), 0))
        const drawn = [...boxes, ...labels]
        for (let i = 0; i < drawn.length; i++) {
          for (let j = i + 1; j < drawn.length; j++)
            expect(overlaps(drawn[i], drawn[j]), `${graph.machineId}: boxes ${i} and ${j} overlap`).toBe(false)
        }
        // Clicking a state lights it and its arrows.
        const first = graph.states.find((s) => graph.transitions.some((t) => t.source === s.path))!
        await svg.locator(`g.state[data-state="${first.path}"]`).click()
        expect(await svg.getAttribute('class')).toContain('focused')
        expect(await svg.locator(`g.edge.lit[data-source="${first.path}"]`).count()).toBe(
          graph.transitions
            .filter((t) => t.source === first.path)
            .reduce((n, t) => n + Math.max(1, t.targets.length), 0),
        )
        await svg.locator(`g.state[data-state="${first.path}"]`).click()
        expect(await svg.getAttribute('class')).not.toContain('focused')
      }

      expect(requests).toEqual([pathToFileURL(file).href])
      expect(problems).toEqual([])
      // Hundreds of browser round trips (one per state box and label): some 25-35 s on two shared cores.
    },
    120_000,
  )
})
