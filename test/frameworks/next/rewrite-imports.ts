/**
 * The move from next-auth v5 to Authchart, as a script an app's owner runs: rewrites the import specifiers of a
 * source file, nothing else. `next-auth` → `authchart/next`, `next-auth/react` → `authchart/react`,
 * `next-auth/providers/<id>` → `authchart/providers/<id>`, `next-auth/jwt` → `authchart/jwt`, and
 * `@auth/kysely-adapter` → `authchart/adapters/sql` (the same `KyselyAdapter(db)` on the same tables).
 */
const moved: ReadonlyArray<[RegExp, string]> = [
  [/^next-auth$/, 'authchart/next'],
  [/^next-auth\/react$/, 'authchart/react'],
  [/^next-auth\/providers\/([\w-]+)$/, 'authchart/providers/$1'],
  [/^next-auth\/jwt$/, 'authchart/jwt'],
  [/^@auth\/kysely-adapter$/, 'authchart/adapters/sql'],
]

function movedSpecifier(specifier: string): string {
  for (const [from, to] of moved) if (from.test(specifier)) return specifier.replace(from, to)
  return specifier
}

/** The source with every `from '…'`, `import('…')` and `declare module '…'` specifier moved. */
export function rewriteImports(source: string): string {
  return source.replace(
    /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bdeclare\s+module\s+)(['"])([^'"]+)\2/g,
    (_match, lead: string, quote: string, specifier: string) => `${lead}${quote}${movedSpecifier(specifier)}${quote}`,
  )
}
