// The strict scan behind the kit's 400 duplicate_key: JSON.parse keeps the last of two equal keys
// without a word, so `{"id":"mine","id":"victim"}` would act on "victim".
import { describe, expect, it } from 'vitest'
import { duplicateKey } from '../../../src/server/duplicateKey'

describe('duplicateKey', () => {
  it.each([
    ['{"id":"mine","id":"victim"}', 'id'],
    ['{"i\\u0064":"mine","id":"victim"}', 'id'],
    ['{"id":"mine","\\u0069\\u0044":"x","\\u0069\\u0064":"victim"}', 'id'],
    ['{"a\\/b":1,"a/b":2}', 'a/b'],
    ['{"\\"":1,"\\u0022":2}', '"'],
    ['{"":1,"":2}', ''],
    ['{"__proto__":1,"__proto__":2}', '__proto__'],
    ['{"caf\\u00e9":1,"café":2}', 'café'],
    ['{"\\ud83d\\ude00":1,"😀":2}', '😀'],
    ['{"beneficiary":{"name":"A","iban":"X","iban":"Y"}}', 'beneficiary.iban'],
    ['{"a":{"b":{"c":{"d":1,"d":2}}}}', 'a.b.c.d'],
    ['{"list":[1,{"x":1},{"x":1,"y":[{"z":0,"z":0}]}]}', 'list.2.y.0.z'],
    ['[{"a":1},[{"b":1,"b":2}]]', '1.0.b'],
    [' { "id" : 1 , "id" : 2 } ', 'id'],
    ['{\n\t"id":1,\r\n"id":2}', 'id'],
    ['{"a":"}","b":"{\\"a\\":1}","a":3}', 'a'],
    ['{"a\\\\":1,"a\\\\":2}', 'a\\'],
    ['{"x":{},"y":[],"x":1}', 'x'],
  ])('%s has %j twice', (text, path) => {
    JSON.parse(text) // valid JSON, which JSON.parse accepts as it is
    expect(duplicateKey(text)).toBe(path)
  })

  it.each([
    '{}',
    '[]',
    '"id"',
    '12',
    'null',
    '{"id":"mine"}',
    '{"id":"id","x":"id"}',
    '{"id":{"id":{"id":1}}}',
    '[{"id":1},{"id":2}]',
    '{"a":[{"id":1},{"id":2}],"b":{"id":3}}',
    '{"Id":1,"id":2,"ID":3}',
    '{"e\\u0301":1,"é":2}', // two spellings of é that Unicode calls canonically equal: two keys to JSON
    '{"a\\\\":1,"a":2}',
    '{"a":"\\\\","b":"\\\\\\"","c":"\\"}{"}',
    '{"k":"{\\"k\\":1,\\"k\\":2}"}', // a duplicate inside a string value is text, not a key
    '{"x":[],"y":{},"z":[{},[],{"x":1}]}',
    '["a","a",{"a":1},"a"]',
  ])('%s has no key twice', (text) => {
    JSON.parse(text)
    expect(duplicateKey(text)).toBeUndefined()
  })

  it('handles deep nesting without recursion', () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`
    expect(duplicateKey(deep)).toBeUndefined()
    const deepDuplicate = `${'{"a":['.repeat(3000)}{"k":1,"k":2}${']}'.repeat(3000)}`
    expect(duplicateKey(deepDuplicate)).toBe(`${'a.0.'.repeat(3000)}k`)
  })

  it('ends on text that is not JSON instead of looping', () => {
    for (const text of ['{"a', '{"a":"\\', '{"a":1,"a', '"', '{"\\"', '}}]]', '{"a":1}}"a":1', '']) {
      expect(() => duplicateKey(text)).not.toThrow()
    }
  })

  describe('random objects, keys spelled with random escapes (fuzz, seeded)', () => {
    // A small deterministic generator: the same cases each run, failures reproducible by seed.
    function rng(seed: number) {
      let s = seed >>> 0
      return () => {
        s = (s + 0x6d2b79f5) >>> 0
        let t = s
        t = Math.imul(t ^ (t >>> 15), t | 1)
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296
      }
    }
    const ALPHABET = ['a', 'b', 'i', 'd', '"', '\\', '/', '{', '}', '[', ']', ':', ',', ' ', 'é', '😀', '\n', '\u2028', '.']

    function cases(seed: number) {
      const random = rng(seed)
      const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]
      const key = () => Array.from({ length: Math.floor(random() * 3) }, () => pick(ALPHABET)).join('')
      // One character of a string literal, in any of the spellings JSON allows for it.
      const spell = (char: string) => {
        const plain = JSON.stringify(char).slice(1, -1)
        const units = [...char].length === 1 ? Array.from({ length: char.length }, (_, i) => char.charCodeAt(i)) : []
        const escaped = units.map((u) => `\\u${u.toString(16).padStart(4, '0')}`).join('')
        const shouty = escaped.toUpperCase().replace(/\\U/g, '\\u')
        return pick([plain, plain, escaped, shouty, char === '/' ? '\\/' : plain])
      }
      const literal = (text: string) => `"${[...text].map(spell).join('')}"`
      // Every object's own keys are distinct; `objects` keeps each one's path, keys and members, for the duplicate to come.
      const objects: Array<{ path: string[]; keys: string[]; text: string[] }> = []
      function value(path: string[], depth: number): string {
        const r = random()
        if (depth > 4 || r < 0.35) return pick(['1', '-2.5e3', 'true', 'null', literal(key()), literal('{"x":1,"x":2}')])
        if (r < 0.55) {
          const items = Array.from({ length: Math.floor(random() * 4) }, (_, i) => value([...path, String(i)], depth + 1))
          return `[${items.join(pick([',', ' , ', ',\n']))}]`
        }
        const keys = [...new Set(Array.from({ length: Math.floor(random() * 5) }, key))]
        const members = keys.map((k) => `${literal(k)}${pick([':', ' : '])}${value([...path, k], depth + 1)}`)
        objects.push({ path, keys, text: members })
        return `{${members.join(',')}}`
      }
      const text = `{${Array.from(new Set(Array.from({ length: 4 }, key)))
        .map((k) => `${literal(k)}:${value([k], 1)}`)
        .join(',')}}`
      return { text, objects, random, pick, literal }
    }

    it('finds no duplicate where each object has distinct keys, however spelled (500 documents)', () => {
      for (let seed = 1; seed <= 500; seed++) {
        const { text } = cases(seed)
        expect(() => JSON.parse(text), `seed ${seed}`).not.toThrow()
        expect(duplicateKey(text), `seed ${seed}: ${text}`).toBeUndefined()
      }
    })

    it('finds the one duplicate spliced into a random object, however spelled, and names its path (500 documents)', () => {
      let spliced = 0
      for (let seed = 1; seed <= 500; seed++) {
        const { text, objects, random, pick, literal } = cases(seed)
        const withKeys = objects.filter((o) => o.keys.length > 0)
        if (withKeys.length === 0) continue
        const target = pick(withKeys)
        const k = pick(target.keys)
        // Rewrite that object with one more member of the same key, spelled anew, in a random place.
        const original = `{${target.text.join(',')}}`
        const members = [...target.text]
        members.splice(Math.floor(random() * (members.length + 1)), 0, `${literal(k)}:0`)
        const at = text.indexOf(original)
        expect(at, `seed ${seed}`).toBeGreaterThanOrEqual(0)
        const broken = text.slice(0, at) + `{${members.join(',')}}` + text.slice(at + original.length)
        expect(() => JSON.parse(broken), `seed ${seed}`).not.toThrow()
        // The first object in the text holding the same members is the one found: compare by path only when unique.
        const found = duplicateKey(broken)
        expect(found, `seed ${seed}: ${broken}`).toBeDefined()
        if (objects.filter((o) => `{${o.text.join(',')}}` === original).length === 1) expect(found, `seed ${seed}`).toBe([...target.path, k].join('.'))
        spliced++
      }
      expect(spliced).toBeGreaterThan(300)
    })
  })
})
