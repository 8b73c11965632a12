// The package's declaration files as Node's ESM resolver reads them: tsc writes the relative
// specifiers as the sources spell them ('./handler', '../kernel/types', import(".")), which a
// partner's TypeScript under `moduleResolution: node16`/`nodenext` cannot resolve. Each relative
// specifier gets the file it names: `./x.js` for x.d.ts, `./x/index.js` for a folder.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}(?:\/[^'"]*)?)\2/g

/** The specifier with its file named, or the specifier as it was when it names none we wrote. */
export function withExtension(specifier, fromDir) {
  if (/\.(js|mjs|cjs|json)$/.test(specifier)) return specifier
  const target = resolve(fromDir, specifier)
  if (existsSync(`${target}.d.ts`)) return `${specifier}.js`
  if (existsSync(join(target, 'index.d.ts'))) return `${specifier.replace(/\/$/, '')}/index.js`
  return specifier
}

export function rewriteDeclarations(dir) {
  let files = 0
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      files += rewriteDeclarations(path)
    } else if (name.endsWith('.d.ts')) {
      const text = readFileSync(path, 'utf8')
      const next = text.replace(SPECIFIER, (_, lead, quote, spec) => `${lead}${quote}${withExtension(spec, dirname(path))}${quote}`)
      if (next !== text) writeFileSync(path, next)
      files += 1
    }
  }
  return files
}
