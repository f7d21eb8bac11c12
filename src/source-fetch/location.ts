// Where a published file lives, as the fetch needs it: the address to request (without its userinfo, which
// fetch() refuses, sent as Basic authorization instead), the checksum file beside it (`<file>.sha256`, the
// query kept: a signed URL signs both), and the address as logs, /status and metrics show it: origin and
// path only, never a password or a query (which may carry a token).
export class PublishedLocation {
  private constructor(
    /** The file's address, as requested: no userinfo, the query kept. */
    readonly fileUrl: string,
    /** The checksum file's address, as requested. */
    readonly checksumUrl: string,
    /** Headers of every request (Authorization when the configured URL carries userinfo). */
    readonly headers: Readonly<Record<string, string>>,
    /** origin + path: what logs and answers may show. */
    readonly shown: string,
    /** host[:port] */
    readonly host: string,
  ) {}

  /** `href`: an http(s) URL config.ts checked. */
  static of(href: string): PublishedLocation {
    const url = new URL(href);
    const headers: Record<string, string> = {};
    if (url.username !== '' || url.password !== '') {
      const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      headers.Authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    const checksum = new URL(url);
    checksum.pathname = `${url.pathname}.sha256`;
    return new PublishedLocation(url.href, checksum.href, headers, `${url.origin}${url.pathname}`, url.host);
  }

  /** The file's name, the last segment of its path. */
  get fileName(): string {
    return decodeURIComponent(new URL(this.fileUrl).pathname.split('/').at(-1)!);
  }
}
