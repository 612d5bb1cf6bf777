// Toy Tricks at the browser table (tests only, tests/toygame/): the fewest hooks a game needs,
// its summary codes and its own reason code; everything else is the core's default.
(function (M) {
  "use strict";
  const { gettext, fmt } = M;

  M.registerGame("toy", {
    reasons: {
      must_follow_suit: (p) => fmt(gettext("You must follow suit (%(suit)s)."), { suit: M.suitName(p.suit) }),
    },
    summary: {
      kinds: { tricks: gettext("tricks") },
      parts: {
        tricks_taken: (p) => [fmt(gettext("%(n)s tricks taken"), { n: p.tricks }), gettext("tricks")],
        per_trick: (p) => [fmt(gettext("3 × %(n)s tricks"), { n: p.tricks }), gettext("3 × tricks")],
        par: (p) => [fmt(gettext("less the %(n)s tricks"), { n: p.tricks }), gettext("par")],
      },
      rows: { tricks: gettext("Tricks won") },
    },
  });
})(window.Mediana);
