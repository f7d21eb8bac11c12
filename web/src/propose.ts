// The proposal page: a pin on the map (where there is one) fills the position fields; the form sends the
// proposal with the human check, and a moderator reviews it.
import { enableSubmit, fieldText, startPage, t } from './common.js';
import { prepareContribution, send } from './contribute.js';

startPage();
const form = document.getElementById('propose') as HTMLFormElement;
const latInput = document.getElementById('p-lat') as HTMLInputElement;
const lonInput = document.getElementById('p-lon') as HTMLInputElement;
void prepareContribution(form);

const setPosition = (lat: number, lon: number) => {
  latInput.value = lat.toFixed(6);
  lonInput.value = lon.toFixed(6);
};

const lat = Number(latInput.value);
const lon = Number(lonInput.value);
const given = latInput.value !== '' && lonInput.value !== '' ? { lat, lon } : null;
const last = JSON.parse(localStorage.getItem('last-view') ?? 'null') as { west: number; south: number; east: number; north: number; zoom: number } | null;
const start = given ? { ...given, zoom: 17 } : last ? { lat: (last.north + last.south) / 2, lon: (last.east + last.west) / 2, zoom: last.zoom } : null;
if (start) {
  import('./map.js')
    .then(async ({ createMap }) => {
      const wrap = document.getElementById('map-wrap')!;
      wrap.hidden = false;
      const map = await createMap(document.getElementById('map')!, start);
      map.enablePin(setPosition, given);
    })
    .catch(() => {
      document.getElementById('map-wrap')!.hidden = true;
    });
}

const here = document.getElementById('p-here') as HTMLButtonElement;
if ('geolocation' in navigator) {
  here.hidden = false;
  here.addEventListener('click', () => {
    navigator.geolocation.getCurrentPosition((position) => setPosition(position.coords.latitude, position.coords.longitude), () => here.focus());
  });
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const body: Record<string, unknown> = { lat: Number(latInput.value.replace(',', '.')), lon: Number(lonInput.value.replace(',', '.')) };
  for (const name of ['name', 'opening_hours', 'note']) {
    const value = fieldText(data, name).trim();
    if (value) body[name] = value;
  }
  for (const name of ['access', 'fee', 'wheelchair', 'changing_table']) body[name] = fieldText(data, name);
  void send(form, '/api/v1/submissions', body, () => t('improve.thanksPending'));
});enableSubmit(form);

