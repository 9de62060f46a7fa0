/**
 * A small layered layout (the Sugiyama scheme) for the inspector's SVG, so the page needs no layout library and no
 * network. Every edge gets a label slot of its own in the layer between two state layers: real nodes sit on even
 * layers, the slots and bends on odd ones, so labels never overlap boxes or each other. The work is done left to
 * right; top to bottom is the same layout transposed.
 */
import { required } from './required.js'

export interface LayoutInputNode {
  id: string
  width: number
  height: number
}
export interface LayoutInputEdge {
  id: string
  source: string
  target: string
  labelWidth: number
  labelHeight: number
}

export interface PlacedNode {
  id: string
  x: number
  y: number
  width: number
  height: number
}
export interface PlacedEdge {
  id: string
  source: string
  target: string
  /** SVG path data from the source box to the target box. */
  d: string
  /** Centre of the label slot (for a self-loop: above the box). */
  labelX: number
  labelY: number
}
export interface Layout {
  width: number
  height: number
  nodes: PlacedNode[]
  edges: PlacedEdge[]
}

interface Item {
  id: string
  width: number
  height: number
  layer: number
  y: number
}

const columnGap = 28
const rowGap = 14
const margin = 16
const loopHeight = 34

/** Layers by longest path after turning back-edges around; `first` and its successors come first. */
function assignLayers(
  ids: string[],
  edges: LayoutInputEdge[],
  first: string,
): { layer: Map<string, number>; reversed: Set<string> } {
  const out = new Map<string, string[]>(ids.map((id) => [id, []]))
  for (const e of edges) if (e.source !== e.target) out.get(e.source)?.push(e.target)
  const reversed = new Set<string>()
  const state = new Map<string, 'open' | 'done'>()
  const backPairs = new Set<string>()
  const visit = (id: string): void => {
    state.set(id, 'open')
    for (const next of out.get(id) ?? []) {
      if (state.get(next) === 'open') backPairs.add(`${id}\u0000${next}`)
      else if (!state.has(next)) visit(next)
    }
    state.set(id, 'done')
  }
  for (const id of [first, ...ids]) if (!state.has(id)) visit(id)
  for (const e of edges) if (backPairs.has(`${e.source}\u0000${e.target}`)) reversed.add(e.id)

  const layer = new Map<string, number>(ids.map((id) => [id, 0]))
  // Longest path on the acyclic remainder: relax |V| times (graphs here have a few dozen nodes).
  for (let round = 0; round < ids.length; round++) {
    let changed = false
    for (const e of edges) {
      if (e.source === e.target) continue
      const [from, to] = reversed.has(e.id) ? [e.target, e.source] : [e.source, e.target]
      const want = (layer.get(from) ?? 0) + 2
      if ((layer.get(to) ?? 0) < want) {
        layer.set(to, want)
        changed = true
      }
    }
    if (!changed) break
  }
  return { layer, reversed }
}

/** Orders each layer by the mean position of its neighbours, sweeping down and up a few times. */
function orderLayers(layers: Item[][], links: Array<[Item, Item]>): void {
  const neighbours = new Map<Item, Item[]>()
  for (const [a, b] of links) {
    neighbours.set(a, [...(neighbours.get(a) ?? []), b])
    neighbours.set(b, [...(neighbours.get(b) ?? []), a])
  }
  const position = (item: Item): number => layers[item.layer].indexOf(item)
  for (let sweep = 0; sweep < 8; sweep++) {
    const down = sweep % 2 === 0
    const sequence = down ? layers.map((_, i) => i) : layers.map((_, i) => layers.length - 1 - i)
    for (const i of sequence) {
      const side = down ? i - 1 : i + 1
      const score = new Map<Item, number>()
      layers[i].forEach((item, index) => {
        const ns = (neighbours.get(item) ?? []).filter((n) => n.layer === side)
        score.set(item, ns.length === 0 ? index : ns.reduce((sum, n) => sum + position(n), 0) / ns.length)
      })
      layers[i].sort((a, b) => required(score, a) - required(score, b))
    }
  }
}

/** Places each layer's items near their neighbours without overlap: pushed down, pushed up, then averaged. */
function placeRows(layers: Item[][], links: Array<[Item, Item]>): void {
  for (const column of layers) {
    let y = 0
    for (const item of column) {
      item.y = y
      y += item.height + rowGap
    }
  }
  const neighbours = new Map<Item, Item[]>()
  for (const [a, b] of links) {
    neighbours.set(a, [...(neighbours.get(a) ?? []), b])
    neighbours.set(b, [...(neighbours.get(b) ?? []), a])
  }
  const centre = (item: Item): number => item.y + item.height / 2
  for (let pass = 0; pass < 6; pass++) {
    for (const column of layers) {
      const wanted = column.map((item) => {
        const ns = neighbours.get(item) ?? []
        return ns.length === 0 ? centre(item) : ns.reduce((s, n) => s + centre(n), 0) / ns.length
      })
      const down: number[] = []
      let floor = -Infinity
      column.forEach((item, i) => {
        const top = Math.max(wanted[i] - item.height / 2, floor)
        down.push(top)
        floor = top + item.height + rowGap
      })
      const up: number[] = new Array<number>(column.length)
      let ceiling = Infinity
      for (let i = column.length - 1; i >= 0; i--) {
        const item = column[i]
        const top = Math.min(wanted[i] - item.height / 2, ceiling - item.height)
        up[i] = top
        ceiling = top - rowGap
      }
      // The two sweeps each respect the order; their mean keeps it and splits the difference.
      column.forEach((item, i) => {
        item.y = (down[i] + up[i]) / 2
      })
      for (let i = 1; i < column.length; i++) {
        const prev = column[i - 1]
        column[i].y = Math.max(column[i].y, prev.y + prev.height + rowGap)
      }
    }
  }
}

type Point = [number, number]

const fmt = (p: Point): string => `${p[0].toFixed(1)},${p[1].toFixed(1)}`

/** A smooth path through layout-space points, leaving and entering each point along the layer axis. */
function curve(points: Point[], screen: (p: Point) => Point): string {
  let d = `M${fmt(screen(points[0]))}`
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1]
    const [x1, y1] = points[i]
    const mid = (x0 + x1) / 2
    d +=
      y0 === y1
        ? ` L${fmt(screen([x1, y1]))}`
        : ` C${fmt(screen([mid, y0]))} ${fmt(screen([mid, y1]))} ${fmt(screen([x1, y1]))}`
  }
  return d
}

/**
 * Spreads the arrows that meet one side of a box along that side, ordered by where they come from, so that they
 * do not all converge on its middle.
 */
function spreadPorts(
  edges: LayoutInputEdge[],
  routes: Map<string, Point[]>,
  reversed: Set<string>,
  byId: Map<string, PlacedNode>,
): void {
  const sides = new Map<string, { node: PlacedNode; ends: Array<{ point: Point; from: Point }> }>()
  const add = (node: PlacedNode, side: string, point: Point, from: Point): void => {
    const key = `${side}\u0000${node.id}`
    const entry = sides.get(key) ?? { node, ends: [] }
    entry.ends.push({ point, from })
    sides.set(key, entry)
  }
  for (const e of edges) {
    const points = routes.get(e.id)
    if (!points) continue
    const back = reversed.has(e.id)
    add(required(byId, e.source), back ? 'low' : 'high', points[0], points[1])
    add(required(byId, e.target), back ? 'high' : 'low', points[points.length - 1], points[points.length - 2])
  }
  for (const { node, ends } of sides.values()) {
    ends.sort((a, b) => a.from[1] - b.from[1])
    ends.forEach((end, i) => {
      end.point[1] = node.y + node.height * (0.15 + (0.7 * (i + 1)) / (ends.length + 1))
    })
  }
}

/**
 * Lays out a directed graph in layers.
 * @param first the node to put in the first layer (the initial state)
 * @param direction `LR` (layers are columns) or `TB` (layers are rows)
 */
export function layoutGraph(
  inputNodes: LayoutInputNode[],
  inputEdges: LayoutInputEdge[],
  first: string,
  direction: 'LR' | 'TB' = 'LR',
): Layout {
  const tb = direction === 'TB'
  // Top to bottom is computed left to right on transposed sizes, then transposed back.
  const nodes = tb ? inputNodes.map((n) => ({ ...n, width: n.height, height: n.width })) : inputNodes
  const edges = tb
    ? inputEdges.map((e) => ({ ...e, labelWidth: e.labelHeight, labelHeight: e.labelWidth }))
    : inputEdges
  const screen = (p: Point): Point => (tb ? [p[1], p[0]] : p)
  const { layer, reversed } = assignLayers(
    nodes.map((n) => n.id),
    edges,
    first,
  )
  const items = new Map<string, Item>()
  for (const n of nodes) {
    const loops = edges.filter((e) => e.source === n.id && e.target === n.id)
    const loopRoom = loops.length > 0 ? Math.max(loopHeight, ...loops.map((e) => e.labelHeight + 24)) : 0
    items.set(n.id, { id: n.id, width: n.width, height: n.height + loopRoom, layer: layer.get(n.id) ?? 0, y: 0 })
  }
  const maxLayer = Math.max(0, ...[...items.values()].map((i) => i.layer))
  const layers: Item[][] = Array.from({ length: maxLayer + 1 }, () => [])
  for (const item of items.values()) layers[item.layer].push(item)

  const links: Array<[Item, Item]> = []
  const chains = new Map<string, Item[]>()
  for (const e of edges) {
    if (e.source === e.target) continue
    const [from, to] = reversed.has(e.id)
      ? [required(items, e.target), required(items, e.source)]
      : [required(items, e.source), required(items, e.target)]
    const chain: Item[] = [from]
    for (let l = from.layer + 1; l < to.layer; l++) {
      // The first slot after the edge's source carries the label; later ones are bends.
      const labelled = reversed.has(e.id) ? l === to.layer - 1 : l === from.layer + 1
      const slot: Item = {
        id: `${e.id}#${l}`,
        width: labelled ? e.labelWidth : 2,
        height: labelled ? e.labelHeight : 2,
        layer: l,
        y: 0,
      }
      layers[l].push(slot)
      chain.push(slot)
    }
    chain.push(to)
    for (let i = 1; i < chain.length; i++) links.push([chain[i - 1], chain[i]])
    chains.set(e.id, reversed.has(e.id) ? chain.reverse() : chain)
  }
  orderLayers(layers, links)
  placeRows(layers, links)

  const columnX: number[] = []
  let x = margin
  for (const column of layers) {
    columnX.push(x)
    x += Math.max(0, ...column.map((i) => i.width)) + columnGap
  }
  const minY = Math.min(0, ...layers.flat().map((i) => i.y))
  const left = (item: Item): number =>
    columnX[item.layer] + (Math.max(...layers[item.layer].map((i) => i.width)) - item.width) / 2
  const top = (item: Item): number => item.y - minY + margin

  const placed: PlacedNode[] = nodes.map((n) => {
    const item = required(items, n.id)
    const loopRoom = item.height - n.height
    return { id: n.id, x: left(item), y: top(item) + loopRoom, width: n.width, height: n.height }
  })
  const byId = new Map(placed.map((p) => [p.id, p]))
  const routes = new Map<string, Point[]>()
  const labels = new Map<string, Point>()
  for (const e of edges) {
    if (e.source === e.target) continue
    const s = required(byId, e.source)
    const t = required(byId, e.target)
    const back = reversed.has(e.id)
    const points: Point[] = [[back ? s.x : s.x + s.width, s.y + s.height / 2]]
    for (const slot of required(chains, e.id).slice(1, -1)) {
      const sx = left(slot)
      const sy = top(slot) + slot.height / 2
      if (slot.width > 2) labels.set(e.id, [sx + slot.width / 2, sy])
      points.push(back ? [sx + slot.width, sy] : [sx, sy], back ? [sx, sy] : [sx + slot.width, sy])
    }
    points.push([back ? t.x + t.width : t.x, t.y + t.height / 2])
    routes.set(e.id, points)
  }
  spreadPorts(edges, routes, reversed, byId)
  const placedEdges: PlacedEdge[] = edges.map((e) => {
    const s = required(byId, e.source)
    if (e.source === e.target) {
      const cx = s.x + s.width / 2
      const room = required(items, s.id).height - s.height
      const d = `M${fmt(screen([cx - 14, s.y]))} C${fmt(screen([cx - 24, s.y - 30]))} ${fmt(screen([cx + 24, s.y - 30]))} ${fmt(screen([cx + 14, s.y]))}`
      const [labelX, labelY] = screen([cx, s.y - room + 4 + e.labelHeight / 2])
      return { id: e.id, source: e.source, target: e.target, d, labelX, labelY }
    }
    const [labelX, labelY] = screen(labels.get(e.id) ?? [0, 0])
    return { id: e.id, source: e.source, target: e.target, d: curve(required(routes, e.id), screen), labelX, labelY }
  })
  const width = x - columnGap + margin
  const height = Math.max(...layers.flat().map((i) => top(i) + i.height)) + margin
  const screenNodes = tb ? placed.map((n) => ({ id: n.id, x: n.y, y: n.x, width: n.height, height: n.width })) : placed
  return { width: tb ? height : width, height: tb ? width : height, nodes: screenNodes, edges: placedEdges }
}
