// ALTCHA ships its regional translations (fr-fr, es-es, pt-pt) without type declarations; each module only
// registers its texts on the widget's global when imported.
declare module 'altcha/i18n/fr-fr';
declare module 'altcha/i18n/es-es';
declare module 'altcha/i18n/pt-pt';
