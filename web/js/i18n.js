// The page's own texts in the API's languages (en, de, fr, es); FullCalendar brings its own
// (buttons, day names) through its locale files. The language comes from ?lang=, else from the
// browser's preferences, else English, and the API is asked for the same one (_locale).
(function () {
  'use strict';
  const texts = {
    en: {
      title: 'Events', filters: 'Filter events', calendar: 'Calendar of events', search: 'Search',
      category: 'Category', tag: 'Tag', venue: 'Venue', organizer: 'Organizer', language: 'Language',
      all: 'All', subscribe: 'Subscribe', subscribeHint: 'Add these events (with the current filters) to your calendar app',
      loading: 'Loading events…', failed: 'The events could not be loaded.', close: 'Close',
      when: 'When', eventZone: 'Local time of the event', yourZone: 'Your time', allDay: 'All day',
      organizers: 'Organizers', cost: 'Cost', map: 'Map', website: 'Website', categories: 'Categories',
      openEvent: 'Show details of', count: '{n} events', more: '+{n} more', dayEvents: 'All events of the day',
    },
    de: {
      title: 'Veranstaltungen', filters: 'Veranstaltungen filtern', calendar: 'Veranstaltungskalender',
      search: 'Suche', category: 'Kategorie', tag: 'Schlagwort', venue: 'Veranstaltungsort',
      organizer: 'Veranstalter', language: 'Sprache', all: 'Alle', subscribe: 'Abonnieren',
      subscribeHint: 'Diese Veranstaltungen (mit den aktuellen Filtern) in Ihre Kalender-App übernehmen',
      loading: 'Veranstaltungen werden geladen…', failed: 'Die Veranstaltungen konnten nicht geladen werden.',
      close: 'Schließen', when: 'Wann', eventZone: 'Ortszeit der Veranstaltung', yourZone: 'Ihre Zeit',
      allDay: 'Ganztägig', organizers: 'Veranstalter', cost: 'Eintritt', map: 'Karte', website: 'Website',
      categories: 'Kategorien', openEvent: 'Details anzeigen zu', count: '{n} Veranstaltungen',
      more: '+{n} weitere', dayEvents: 'Alle Veranstaltungen des Tages',
    },
    fr: {
      title: 'Événements', filters: 'Filtrer les événements', calendar: 'Calendrier des événements',
      search: 'Rechercher', category: 'Catégorie', tag: 'Étiquette', venue: 'Lieu', organizer: 'Organisateur',
      language: 'Langue', all: 'Tous', subscribe: "S'abonner",
      subscribeHint: 'Ajouter ces événements (avec les filtres actuels) à votre application de calendrier',
      loading: 'Chargement des événements…', failed: "Les événements n'ont pas pu être chargés.",
      close: 'Fermer', when: 'Quand', eventZone: "Heure locale de l'événement", yourZone: 'Votre heure',
      allDay: 'Toute la journée', organizers: 'Organisateurs', cost: 'Tarif', map: 'Carte',
      website: 'Site web', categories: 'Catégories', openEvent: 'Afficher les détails de', count: '{n} événements',
      more: '+{n} autres', dayEvents: 'Tous les événements du jour',
    },
    es: {
      title: 'Eventos', filters: 'Filtrar eventos', calendar: 'Calendario de eventos', search: 'Buscar',
      category: 'Categoría', tag: 'Etiqueta', venue: 'Lugar', organizer: 'Organizador', language: 'Idioma',
      all: 'Todos', subscribe: 'Suscribirse',
      subscribeHint: 'Añadir estos eventos (con los filtros actuales) a su aplicación de calendario',
      loading: 'Cargando eventos…', failed: 'No se pudieron cargar los eventos.', close: 'Cerrar',
      when: 'Cuándo', eventZone: 'Hora local del evento', yourZone: 'Su hora', allDay: 'Todo el día',
      organizers: 'Organizadores', cost: 'Precio', map: 'Mapa', website: 'Sitio web',
      categories: 'Categorías', openEvent: 'Mostrar detalles de', count: '{n} eventos',
      more: '+{n} más', dayEvents: 'Todos los eventos del día',
    },
  };
  // The API's locale for each language (docs/api.md §9).
  const apiLocales = { en: 'en_US', de: 'de_DE', fr: 'fr_FR', es: 'es_ES' };

  // pick(asked): the first shipped language of ?lang= and then navigator.languages.
  function pick(asked) {
    const wishes = [asked].concat(navigator.languages || [navigator.language]);
    for (const w of wishes) {
      const base = String(w || '').toLowerCase().split(/[-_]/)[0];
      if (texts[base]) return base;
    }
    return 'en';
  }

  let current = 'en';
  function t(key) { return texts[current][key] || texts.en[key] || key; }

  // use(lang): makes lang current and rewrites every data-i18n text and data-i18n-label.
  function use(lang) {
    current = texts[lang] ? lang : 'en';
    document.documentElement.lang = current;
    document.querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = t(el.dataset.i18n); });
    document.querySelectorAll('[data-i18n-label]').forEach((el) => {
      el.setAttribute('aria-label', t(el.dataset.i18nLabel));
    });
  }

  window.CalWeb = window.CalWeb || {};
  window.CalWeb.i18n = { pick, use, t, lang: () => current, apiLocale: () => apiLocales[current] };
})();
