import { asciiJson } from '../rules/ascii-json.js';

// The credit every answer with toilet data carries (spec: Attribution object), and the note telling
// clients what to show.

/** The credit line itself: MCP results repeat it as a text item of its own. */
export const ATTRIBUTION_TEXT = 'Map data © OpenStreetMap contributors, available under the Open Database License (ODbL)';

export function attributionJson(baseUrl: string): string {
  return asciiJson({
    text: ATTRIBUTION_TEXT,
    license: 'ODbL-1.0',
    url: 'https://www.openstreetmap.org/copyright',
    license_notice_url: `${baseUrl}/licenses`,
  });
}

export const DISPLAY_NOTE_TEXT =
  'Show attribution.text with these results. A partner label marks a paid listing by the business; it never changes the order of results, and the toilet\'s own access, hours and open_now stay as mapped.';
export const DISPLAY_NOTE = asciiJson(DISPLAY_NOTE_TEXT);
