// The shape of one text of a catalogue: a string with `{name}` placeholders, or, for a text that counts,
// one string per plural category of the language (Intl.PluralRules) and the variable it counts.
export type Plural = { readonly plural: string; readonly other: string } & { readonly [category in Intl.LDMLPluralRule]?: string };
export type Message = string | Plural;
