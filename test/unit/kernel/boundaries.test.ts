// The kernel's promise: no flow reaches into another. A flow's modules (src/flows/<flow>/) and its
// screens (src/screens/<flow>/) import the kernel, the api, the lib, never another flow's files;
// and the kernel, the api and the errors import no flow at all.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { edgesOf, files, moduleOf, resolveSpec } from '../helpers/imports'

const imports = (file: string) => edgesOf(file).map((e) => e.to)

const flows = readdirSync('src/flows').filter((name) => statSync(join('src/flows', name)).isDirectory())
const flowOf = (path: string) => {
  const name = /^(?:flows|screens)\/([^/]+)\//.exec(path)?.[1]
  return name && flows.includes(name) ? name : undefined
}

describe('flow boundaries', () => {
  it('finds the flows', () => {
    expect(flows).toEqual(expect.arrayContaining(['deposit', 'card', 'onboarding']))
  })

  it.each(flows)('%s imports no other flow', (flow) => {
    const own = [
      ...files(join('src/flows', flow)),
      ...(statSync('src/screens', { throwIfNoEntry: false }) && readdirSync('src/screens').includes(flow) ? files(join('src/screens', flow)) : []),
    ]
    const foreign = own.flatMap((file) =>
      imports(file)
        .filter((target) => flowOf(target) && flowOf(target) !== flow)
        .map((target) => `${file} → ${target}`),
    )
    expect(foreign).toEqual([])
  })

  it('the kernel, the identity steps, the api and the errors import no flow', () => {
    const shared = ['src/kernel', 'src/identity', 'src/screens/identity', 'src/api', 'src/errors', 'src/lib', 'src/components'].flatMap(files)
    const into = shared.flatMap((file) =>
      imports(file)
        .filter((target) => flowOf(target))
        .map((target) => `${file} → ${target}`),
    )
    expect(into).toEqual([])
  })
})

describe('storage boundaries', () => {
  // Every partner's hosted page shares the widget's origin: a flow keeps and reads its records only
  // through partnerStorage (its partner's part, on its service), never the browser's storage itself.
  // The rate limiter's slots are the one shared record (the service limits per IP).
  const code = (file: string) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
      .join('\n')
  const allowed = ['src/storage/safeStorage.ts', 'src/services.ts']

  it('only the storage module (and the rate limiter, in services.ts) reach localStorage or sessionStorage', () => {
    const reaching = files('src')
      .filter((file) => !file.startsWith('src/server/') && !allowed.includes(file))
      .filter((file) => /safe(?:Local|Session)Storage\s*\(|\b(?:local|session)Storage\s*[.[]/.test(code(file)))
    expect(reaching).toEqual([])
  })

  it("the tab's unscoped storage for the page's own signed link is read by pageLink alone", () => {
    // linkSessionStorage is unscoped (no partner is known before the link is checked): any other
    // user of it would be a way around partnerStorage.
    const users = files('src')
      .filter((file) => file !== 'src/storage/safeStorage.ts')
      .filter((file) => /\blinkSessionStorage\b/.test(code(file)))
    expect(users).toEqual(['src/config/pageLink.ts'])
  })
})

// ---------------------------------------------------------------------------------------------
// Layers (issue 30). Every import of the browser code, each one a value, a type or a dynamic
// import(), resolved to its module (src-relative, without extension): test/unit/helpers/imports.ts.
const browserFiles = files('src').filter((file) => !file.startsWith('src/server/') && !/\.test\.tsx?$/.test(file))
const edges = browserFiles.flatMap((file) => edgesOf(file))

/**
 * The layers, lowest first. A module imports (a value or a type) only from its own layer or below.
 * lib: pure helpers (decimals, banks, limits' arithmetic), no words · i18n: the catalogs ·
 * errors: failures and their words · polling · kernel: the flows' shared machinery · storage ·
 * config: options, links, the partner-facing protocol · rateLimit, components (UI pieces), wallet,
 * theme · api: the service and the partner backend · services: one widget's api, limiter, events ·
 * identity · screens and flows (each flow's machine, effects and screens) · App · embed and entries.
 */
const LAYERS: string[][] = [
  ['lib', 'theme'],
  ['i18n'],
  ['errors'],
  ['polling'],
  ['kernel'],
  ['storage'],
  ['config'],
  ['rateLimit', 'components', 'wallet'],
  ['api'],
  ['services'],
  ['identity'],
  ['screens', 'flows'],
  ['App'],
  ['embed', 'main', 'index', 'styles', 'vite-env.d'],
]
/** Imports that run up, each with its reason (docs/layers.md). Empty: none. */
const ALLOWED_UP: Record<string, string> = {}

const layerOf = (module: string) => {
  const top = module.split('/')[0]
  return LAYERS.findIndex((layer) => layer.includes(top))
}
const upArrows = () => edges.filter((e) => layerOf(e.to) > layerOf(e.from)).map((e) => `${e.from} → ${e.to}${e.type ? ' (type)' : ''}`)

describe('layers', () => {
  it('places every folder of the browser code in a layer', () => {
    const unplaced = [
      ...new Set(
        browserFiles
          .map(moduleOf)
          .filter((m) => layerOf(m) < 0)
          .map((m) => m.split('/')[0]),
      ),
    ]
    expect(unplaced).toEqual([])
  })

  it('no import runs up the layers (but the ones listed, each with its reason)', () => {
    expect(upArrows().filter((arrow) => !(arrow.replace(/ \(type\)$/, '') in ALLOWED_UP))).toEqual([])
  })

  it('wallet/ and i18n/ import no flow', () => {
    const into = edges.filter((e) => /^(wallet|i18n)\//.test(e.from) && /^(flows|screens)\//.test(e.to)).map((e) => `${e.from} → ${e.to}`)
    expect(into).toEqual([])
  })

  it("a screen reads a flow only through the flow's door, flows/<flow>/index.ts (a flow's <Flow>.tsx may import its screens)", () => {
    const inside = edges
      .filter((e) => e.from.startsWith('screens/') && e.to.startsWith('flows/') && !/^flows\/[^/]+\/index$/.test(e.to))
      .map((e) => `${e.from} → ${e.to}${e.type ? ' (type)' : ''}`)
    expect(inside).toEqual([])
  })

  it('nothing in lib/ imports api/ or i18n/ (not even a type)', () => {
    const into = edges.filter((e) => e.from.startsWith('lib/') && /^(api|i18n)\//.test(e.to)).map((e) => `${e.from} → ${e.to}`)
    expect(into).toEqual([])
  })

  it("a flow's machine is pure: kernel/, lib/, identity/machine, types of api/ and identity/, and its own pure modules", () => {
    // Each machine and what it reaches in its own folder, held to the same rule (README, "How a flow works").
    const machines = [...flows.map((flow) => `flows/${flow}/machine`), 'identity/machine']
    const impure: string[] = []
    const seen = new Set<string>()
    const visit = (module: string, folder: string) => {
      if (seen.has(module)) return
      seen.add(module)
      for (const e of edges.filter((edge) => edge.from === module)) {
        if (/^(kernel|lib)\//.test(e.to) || e.to === 'identity/machine' || (e.type && /^(api|identity)\//.test(e.to))) continue
        // A module of its own folder is held to the same rule (a type of it, erased, loads nothing of it).
        else if (e.to.startsWith(`${folder}/`) && !e.dynamic) e.type || visit(e.to, folder)
        else impure.push(`${e.from} → ${e.to}${e.type ? ' (type)' : ''}`)
      }
    }
    for (const machine of machines) visit(machine, dirname(machine))
    expect(impure).toEqual([])
  })

  it('a lazy chunk is cut where it is needed: a module loaded by import() re-exports nothing from another folder', () => {
    const chunks = [...new Set(edges.filter((e) => e.dynamic).map((e) => e.to))]
    const through = chunks.flatMap((chunk) => {
      const file = browserFiles.find((f) => moduleOf(f) === chunk)!
      const source = readFileSync(file, 'utf8')
      const foreign = (spec: string) => {
        const to = resolveSpec(file, spec)
        return !!to && dirname(to) !== dirname(chunk)
      }
      // export … from '<another folder>'
      const direct = [...source.matchAll(/\bexport\s+(?!type\b)[^'";]*?from\s*'(\.[^']+)'/gs)].filter((m) => foreign(m[1])).map((m) => m[1])
      // export const name = imported / export { imported }, where imported came from another folder
      const imported = new Set(
        [...source.matchAll(/\bimport\s+(?!type\b)\{([^}]*)\}\s*from\s*'(\.[^']+)'/gs)]
          .filter((m) => foreign(m[2]))
          .flatMap((m) =>
            m[1]
              .split(',')
              .map((n) => n.trim())
              .filter((n) => n && !n.startsWith('type '))
              .map((n) => n.split(/\s+as\s+/).pop()!),
          ),
      )
      const aliased = [...source.matchAll(/\bexport\s+const\s+\w+\s*=\s*(\w+)\s*(?:\n|;)/g), ...source.matchAll(/\bexport\s*\{([^}]*)\}\s*(?!\s*from)/g)]
        .flatMap((m) => m[1].split(',').map((n) => n.trim().split(/\s+as\s+/)[0]))
        .filter((name) => imported.has(name))
      return [...direct, ...aliased].map((what) => `${chunk} re-exports ${what}`)
    })
    expect(through).toEqual([])
  })

  it('no module imports itself back through others (no cycles, lazy loads aside)', () => {
    const graph = new Map<string, string[]>()
    for (const e of edges.filter((edge) => !edge.dynamic)) graph.set(e.from, [...(graph.get(e.from) ?? []), e.to])
    // Tarjan's strongly connected components: each one of more than one module is a cycle.
    let index = 0
    const stack: string[] = []
    const on = new Set<string>()
    const order = new Map<string, number>()
    const low = new Map<string, number>()
    const cycles: string[] = []
    const connect = (v: string) => {
      order.set(v, index)
      low.set(v, index++)
      stack.push(v)
      on.add(v)
      for (const w of graph.get(v) ?? []) {
        if (!order.has(w)) {
          connect(w)
          low.set(v, Math.min(low.get(v)!, low.get(w)!))
        } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!))
      }
      if (low.get(v) === order.get(v)) {
        const component: string[] = []
        let w: string
        do {
          w = stack.pop()!
          on.delete(w)
          component.push(w)
        } while (w !== v)
        if (component.length > 1) cycles.push(component.sort().join(' ⇄ '))
      }
    }
    for (const v of graph.keys()) if (!order.has(v)) connect(v)
    expect(cycles.sort()).toEqual([])
  })
})
