// JSON.parse keeps the last of two equal keys in an object without a word: `{"id":"mine",
// "id":"victim"}` reads as "victim", while another reader (a log, a proxy, the partner's own check)
// may read "mine". The kit refuses such a body instead, so every reader sees one meaning.

/**
 * The path of the first key given twice in one object of a JSON text (`beneficiary.iban`, array
 * items by index: `list.0.id`), or undefined. Keys are compared as JSON.parse reads them, escapes
 * decoded (`"i\u0064"` is `"id"`). Meant for text JSON.parse accepted; on anything else it stops
 * without throwing, its answer then meaningless.
 */
export function duplicateKey(json: string): string | undefined {
  // One frame per open object (its keys so far) or array (its item index); `at` is the current member.
  const frames: Array<{ keys?: Set<string>; at: string | number }> = []
  let keyNext = false
  for (let i = 0; i < json.length; i++) {
    const char = json[i]
    if (char === '"') {
      let end = i + 1
      while (end < json.length && json[end] !== '"') end += json[end] === '\\' ? 2 : 1
      const top = frames[frames.length - 1]
      if (keyNext && top?.keys) {
        let key: string
        try {
          key = JSON.parse(json.slice(i, end + 1))
        } catch {
          return undefined
        }
        if (top.keys.has(key)) return [...frames.slice(0, -1).map((frame) => frame.at), key].join('.')
        top.keys.add(key)
        top.at = key
        keyNext = false
      }
      i = end
    } else if (char === '{') {
      frames.push({ keys: new Set(), at: '' })
      keyNext = true
    } else if (char === '[') {
      frames.push({ at: 0 })
      keyNext = false
    } else if (char === '}' || char === ']') {
      frames.pop()
      keyNext = false
    } else if (char === ',') {
      const top = frames[frames.length - 1]
      if (top?.keys) keyNext = true
      else if (top) top.at = Number(top.at) + 1
    }
  }
  return undefined
}
