// One rule for every URL we take from outside (options, links, redirect targets), in a module of its
// own so the first load carries this check and not the redirect check with it.

/**
 * Whether a URL carries a user name or password, or an empty one (`https://@host`, which the parser
 * drops: the text as given is read too). Never a place we send a buyer or a request to.
 */
export function carriesCredentials(url: URL, raw: string): boolean {
  return (
    !!(url.username || url.password) ||
    raw
      .slice(url.protocol.length + 2)
      .split(/[/?#]/)[0]
      .includes('@')
  )
}
