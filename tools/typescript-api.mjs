// The project compiles with TypeScript 7 (the native compiler), whose npm package ships no JavaScript compiler API.
// typescript-eslint (type-aware rules) and dependency-cruiser (TypeScript parsing) both need that API, so they get
// TypeScript 6 — installed as the `typescript-api` alias — while `tsc` stays TypeScript 7. Only imports of `typescript`
// made from inside node_modules/ are redirected: the project's own code never sees this.
// Loaded by eslint.config.js (first import) and by `node --import` for dependency-cruiser (see package.json scripts).
import Module, { register } from 'node:module'

const fromTool = (parent) => typeof parent === 'string' && /[\\/]node_modules[\\/]/.test(parent)
const redirect = (request) =>
  request === 'typescript' || request.startsWith('typescript/')
    ? `typescript-api${request.slice('typescript'.length)}`
    : undefined

// CommonJS `require('typescript')` (typescript-eslint, dependency-cruiser's version probe).
const resolveFilename = Module._resolveFilename
Module._resolveFilename = function (request, parent, ...rest) {
  const target = fromTool(parent?.filename) ? redirect(request) : undefined
  return resolveFilename.call(this, target ?? request, parent, ...rest)
}

// ES module `import('typescript')` (dependency-cruiser's parser).
const hooks = `
  const fromTool = ${fromTool.toString()}
  const redirect = ${redirect.toString()}
  export async function resolve(specifier, context, next) {
    const target = fromTool(context.parentURL) ? redirect(specifier) : undefined
    return next(target ?? specifier, context)
  }`
register(`data:text/javascript,${encodeURIComponent(hooks)}`, import.meta.url)
