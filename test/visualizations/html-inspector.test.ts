import { describe, expect, it } from 'vitest'
import { machineRegistry } from '../../machines/index.js'
import { describeEntry } from '../../visualizations/describe-machine.js'
import { toInspectorHtml } from '../../visualizations/html-inspector.js'
import { layoutGraph } from '../../visualizations/layered-layout.js'
import { fixtureHostileEntry, fixtureNestedEntry, fixtureSignInEntry } from './fixtures/fixture-machines.js'

const graphs = [...Object.values(machineRegistry), fixtureSignInEntry, fixtureNestedEntry, fixtureHostileEntry].map(
  describeEntry,
)
const html = toInspectorHtml(graphs)

describe('the flow inspector page', () => {
  it('loads nothing from anywhere: no external script, style, font, image or link', () => {
    // Booleans, so that a failure does not print the whole page.
    expect(/<link\b/i.test(html), '<link> element').toBe(false)
    expect(/\bsrc\s*=/i.test(html), 'src attribute').toBe(false)
    const css = [...html.matchAll(/<style>([\s\S]*?)<\/style>|style="([^"]*)"/g)].map((m) => m[1] ?? m[2]).join('\n')
    expect(/@import|url\((?!#)/i.test(css), 'CSS import or non-local url()').toBe(false)
    for (const [, href] of html.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^#machine-/)
    // The page forbids itself any fetch, so a slip would fail loudly in the browser too.
    expect(html).toContain(
      `content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"`,
    )
  })

  it('has a section per machine with its chart and its state and transition tables', () => {
    for (const graph of graphs) {
      const start = html.indexOf(`<section class="machine" id="machine-${graph.machineId}"`)
      expect(start).toBeGreaterThan(0)
      const section = html.slice(start, html.indexOf('</section>', start))
      expect(section.match(/<g class="state[ "]/g)).toHaveLength(graph.states.length)
      expect(section.match(/<tr data-state=/g)).toHaveLength(graph.states.length + graph.transitions.length)
      for (const state of graph.states) {
        for (const command of state.entry) expect(section).toContain(`entry <code>${command.text}</code>`)
      }
    }
  })

  it('embeds the graph model as JSON that reads back unchanged', () => {
    const json = /<script type="application\/json" id="flow-graphs">([^<]*)<\/script>/.exec(html)![1]
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(graphs)))
  })

  it('escapes text from the definitions everywhere it appears', () => {
    expect(html.includes('<script>alert'), 'raw markup from a description').toBe(false)
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;')
    expect(html).toContain('\\u003cscript>alert')
  })
})

describe('the inspector with a live feed', () => {
  const live = toInspectorHtml(graphs, { live: { feedUrl: '/dev/flow.json?x=</script>', intervalMs: 500 } })

  it('may fetch from its own origin only, and only when a feed is given', () => {
    expect(live).toContain(
      `content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; connect-src 'self'"`,
    )
    expect(html).not.toContain('connect-src')
    expect(html).not.toContain('id="live-steps"')
  })

  it('adds the live panel and a polling script whose feed URL cannot close the script element', () => {
    expect(live).toContain('<ol id="live-steps"></ol>')
    expect(live).toContain('"/dev/flow.json?x=\\u003c/script>"')
    expect(live.match(/<\/script>/g)).toHaveLength((html.match(/<\/script>/g)?.length ?? 0) + 1)
    expect(live).toContain('setTimeout(poll, 500)')
  })
})

describe('layoutGraph', () => {
  const boxes = [
    { id: 'a', width: 80, height: 30 },
    { id: 'b', width: 60, height: 30 },
    { id: 'c', width: 90, height: 40 },
    { id: 'd', width: 50, height: 30 },
  ]
  const edges = [
    { id: 'ab', source: 'a', target: 'b', labelWidth: 40, labelHeight: 18 },
    { id: 'ac', source: 'a', target: 'c', labelWidth: 70, labelHeight: 18 },
    { id: 'bd', source: 'b', target: 'd', labelWidth: 30, labelHeight: 18 },
    { id: 'cd', source: 'c', target: 'd', labelWidth: 30, labelHeight: 32 },
    { id: 'da', source: 'd', target: 'a', labelWidth: 50, labelHeight: 18 },
    { id: 'bb', source: 'b', target: 'b', labelWidth: 20, labelHeight: 18 },
  ]
  const overlaps = (p: { x: number; y: number; width: number; height: number }, q: typeof p): boolean =>
    p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height

  it.each(['LR', 'TB'] as const)('%s: places boxes and labels without overlap, inside the canvas', (direction) => {
    const layout = layoutGraph(boxes, edges, 'a', direction)
    const placedLabels = layout.edges.map((e) => {
      const input = edges.find((i) => i.id === e.id)!
      return {
        x: e.labelX - input.labelWidth / 2,
        y: e.labelY - input.labelHeight / 2,
        width: input.labelWidth,
        height: input.labelHeight,
      }
    })
    const rects = [...layout.nodes, ...placedLabels]
    for (let i = 0; i < rects.length; i++) {
      const r = rects[i]
      expect(r.x).toBeGreaterThanOrEqual(0)
      expect(r.y).toBeGreaterThanOrEqual(0)
      expect(r.x + r.width).toBeLessThanOrEqual(layout.width)
      expect(r.y + r.height).toBeLessThanOrEqual(layout.height)
      for (let j = i + 1; j < rects.length; j++) expect(overlaps(r, rects[j]), `${i} and ${j} overlap`).toBe(false)
    }
    const a = layout.nodes.find((n) => n.id === 'a')!
    const d = layout.nodes.find((n) => n.id === 'd')!
    // The first node leads and the cycle's back edge does not pull it along.
    expect(direction === 'LR' ? a.x < d.x : a.y < d.y).toBe(true)
    for (const e of layout.edges) expect(e.d).toMatch(/^M[\d.]+,[\d.]+( [LC][\d., ]+)+$/)
  })
})
