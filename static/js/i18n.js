// The scripts' words in the page's language (docs/translations.md, "Scripts: the JavaScript
// catalog"). English is the source: each module writes its words in English inside gettext(),
// ngettext() or pgettext() from here, and `makemessages -d djangojs` gathers them (these are the
// names xgettext looks for) into locale/<language>/LC_MESSAGES/djangojs.po.
//
// A page in another language than English loads Django's catalog for it first (base.html: a
// deferred classic script before the modules, so it has run by the time they do), which sets
// `globalThis.django`. Where there is none (an English page needs none, and Node runs some modules
// in the tests) the English stands, with English plurals.
//
// Only words for people go through here: never an error code, a JSON field, a data-* value, an id
// or a class, nor a card as printed ("8♥").

function catalog() {
  const django = globalThis.django;
  return django && typeof django.gettext === "function" ? django : null;
}

/** `msgid` in the page's language. */
export function gettext(msgid) {
  return catalog()?.gettext(msgid) ?? msgid;
}

/** The form of `singular`/`plural` for `count`, in the page's language (French: 0 is singular). */
export function ngettext(singular, plural, count) {
  const django = catalog();
  if (django) return django.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

/** `msgid` in the page's language, told apart from the same English words by `context`. */
export function pgettext(context, msgid) {
  const django = catalog();
  return django && typeof django.pgettext === "function" ? django.pgettext(context, msgid) : msgid;
}

/**
 * `text` with each `%(name)s` replaced by `values[name]`, and `%%` by `%`: the catalog's named
 * placeholders, so that a translation may put them in another order.
 */
export function format(text, values) {
  return text.replace(/%\((\w+)\)s|%%/g, (whole, name) => {
    if (name === undefined) return "%";
    return name in values ? String(values[name]) : whole;
  });
}

/** "a", "a or b", "a, b or c", in the page's language. */
export function orList(items) {
  if (items.length <= 1) return items.join("");
  return format(gettext("%(some)s or %(last)s"), {
    some: items.slice(0, -1).join(", "),
    last: items.at(-1),
  });
}

/** "a", "a and b", "a, b and c", in the page's language. */
export function andList(items) {
  if (items.length <= 1) return items.join("");
  return format(gettext("%(some)s and %(last)s"), {
    some: items.slice(0, -1).join(", "),
    last: items.at(-1),
  });
}
