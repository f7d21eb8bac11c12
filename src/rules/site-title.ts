// The site's title of a toilet the data gives no name (issue 43), as the overview (src/overview/titles.ts)
// finds it and the pages say it (src/web/text/item.ts displayName): the business it is in, the street of
// its address, or the nearest place. The API's `name` stays null.
export interface SiteTitle {
  /** host: the business the toilet is in; street: its address's street; place: the nearest place. */
  kind: 'host' | 'street' | 'place';
  name: string;
}
